package bench

import (
	"runtime/metrics"
	"time"
)

// peakSampler records the peak of the memory the Go runtime holds from
// the operating system: everything it has mapped (/memory/classes/total)
// less the heap it has returned (/memory/classes/heap/released). That is
// the live heap, garbage not yet collected, goroutine stacks and runtime
// metadata; it includes whatever is loaded before the sample starts, such
// as the catalog. It is read every millisecond, so a peak shorter than
// that can be missed.
type peakSampler struct {
	stop chan struct{}
	done chan uint64
}

const (
	metricTotal    = "/memory/classes/total:bytes"
	metricReleased = "/memory/classes/heap/released:bytes"
)

func startPeakSampler() *peakSampler {
	p := &peakSampler{stop: make(chan struct{}), done: make(chan uint64, 1)}
	go p.loop()
	return p
}

func (p *peakSampler) loop() {
	samples := []metrics.Sample{{Name: metricTotal}, {Name: metricReleased}}
	var peak uint64
	read := func() {
		metrics.Read(samples)
		peak = max(peak, samples[0].Value.Uint64()-samples[1].Value.Uint64())
	}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	read()
	for {
		select {
		case <-tick.C:
			read()
		case <-p.stop:
			read()
			p.done <- peak
			return
		}
	}
}

// Stop ends sampling and returns the peak in bytes.
func (p *peakSampler) Stop() uint64 {
	close(p.stop)
	return <-p.done
}
