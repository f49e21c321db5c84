package model

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStages(t *testing.T) {
	for _, s := range Stages() {
		got, err := ParseStage(s.String())
		require.NoError(t, err)
		assert.Equal(t, s, got, "a stage's text parses back")
	}
	got, err := ParseStage("")
	require.NoError(t, err)
	assert.Equal(t, StageGeneralAvailability, got, "absent means General Availability")
	got, err = ParseStage("  experimental ")
	require.NoError(t, err)
	assert.Equal(t, StageExperimental, got)
	_, err = ParseStage("Beta")
	assert.True(t, errors.Is(err, ErrInvalidValue))
	assert.Equal(t, "unspecified", Stage(len(Stages())).String())
}

func TestWarningKinds(t *testing.T) {
	for _, k := range WarningKinds() {
		assert.NotEqual(t, "unspecified", k.String())
	}
	assert.Len(t, WarningKinds(), len(warningKindNames))
}

func TestStageOfBuiltIn(t *testing.T) {
	r := &Release{Stage: StageDeprecated, Disable: Disable{Confirmation: true}}
	m := &Module{Name: "registry", Embedded: true, Stage: StagePreview}
	assert.Equal(t, StagePreview, m.StageOf(r), "a built-in module's own stage applies")
	assert.False(t, m.DisableOf(r).Confirmation)
	m.Embedded = false
	assert.Equal(t, StageDeprecated, m.StageOf(r))
	assert.True(t, m.DisableOf(r).Confirmation)
}
