package bench

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

func TestRunOnSmallInstance(t *testing.T) {
	in := Generate(Size{Name: "20x5", Modules: 20, Releases: 5}, 1)
	o, err := Run(context.Background(), in, CaseUpdateAll, WithRuns(1), WithDeppy(0))
	require.NoError(t, err)
	assert.Equal(t, "ok", o.Checked(), "%v %v", o.ModsolverViolations, o.DeppyViolations)
	assert.True(t, o.DeppyDone())
	assert.Positive(t, o.Ratio())
	assert.Positive(t, o.Variables)
	assert.Positive(t, o.PeakBytes)

	_, err = Run(context.Background(), in, "nope")
	assert.ErrorIs(t, err, model.ErrInvalidInput)
}

// A modsolver run over its cap ends the case without deppy; it is not a
// failed check.
func TestRunTimeout(t *testing.T) {
	in := Generate(Size{Name: "20x5", Modules: 20, Releases: 5}, 1)
	o, err := Run(context.Background(), in, CaseWhatIf, WithRuns(1), WithTimeout(time.Nanosecond), WithDeppy(0))
	require.NoError(t, err)
	assert.True(t, o.ModsolverTimeout)
	assert.Less(t, o.Answered, 1000)
	assert.Equal(t, 1000, o.Requests)
	assert.False(t, o.DeppyRan)
	assert.False(t, o.Failed())
	assert.Equal(t, "-", o.Checked())
	assert.Zero(t, o.Ratio())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Run(ctx, in, CaseUpdateAll, WithRuns(1))
	assert.ErrorIs(t, err, context.Canceled, "the caller's context is not a timeout")
}

func TestMedian(t *testing.T) {
	assert.Equal(t, time.Duration(0), median(nil))
	assert.Equal(t, 2*time.Second, median([]time.Duration{3 * time.Second, time.Second, 2 * time.Second}))
	assert.Equal(t, 1500*time.Millisecond, median([]time.Duration{2 * time.Second, time.Second}))
}

// D429: repeat warms up with one run, and more until the warm-up time has
// passed, then times cfg.runs runs; it returns the first warm-up's answer.
func TestRepeatWarmsUp(t *testing.T) {
	count := func(warmUp time.Duration) (calls, warmUps int, first int, times []time.Duration) {
		var progress []string
		cfg := runConfig{runs: 3, warmUp: warmUp, progress: func(msg string) { progress = append(progress, msg) }}
		first, times, err := repeat(cfg, "M case: modsolver", func() (int, error) {
			calls++
			time.Sleep(2 * time.Millisecond)
			return calls, nil
		})
		require.NoError(t, err)
		for _, p := range progress {
			if strings.Contains(p, "warm-up") {
				warmUps++
			}
		}
		assert.Equal(t, "M case: modsolver run 3/3", progress[len(progress)-1])
		return calls, warmUps, first, times
	}
	calls, warmUps, first, times := count(0)
	assert.Equal(t, 4, calls, "one warm-up and three timed runs")
	assert.Equal(t, 1, warmUps)
	assert.Equal(t, 1, first, "the first warm-up's answer")
	assert.Len(t, times, 3)

	calls, warmUps, first, times = count(30 * time.Millisecond)
	assert.GreaterOrEqual(t, warmUps, 2, "runs until the warm-up time has passed")
	assert.Equal(t, warmUps+3, calls)
	assert.Equal(t, 1, first)
	assert.Len(t, times, 3)

	_, _, err := repeat(runConfig{runs: 3, progress: func(string) {}}, "x", func() (int, error) { return 0, context.Canceled })
	assert.ErrorIs(t, err, context.Canceled, "a failed warm-up stops it")
}
