package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

func TestParseCluster(t *testing.T) {
	c, err := ParseCluster("s.yaml", []byte(`
deckhouse: 1.73.3
kubernetes: "v1.30.2"
edition: ee
bundle: Default
releaseChannel: stable
modules:
  prometheus: {enabled: true, version: v2.3.0, channel: alpha}
  test: {enabled: false}
  other: {}
`))
	require.NoError(t, err)
	assert.Equal(t, "1.73.3", c.Deckhouse.String())
	assert.Equal(t, "1.30.2", c.Kubernetes.String())
	assert.Equal(t, "ee", c.Edition)
	p := c.Modules["prometheus"]
	assert.True(t, p.On())
	assert.Equal(t, "2.3.0", p.Version.String())
	assert.Equal(t, "alpha", p.Channel)
	assert.True(t, c.Modules["test"].Off())
	assert.False(t, c.Modules["other"].Configured())
}

// The DKP and Kubernetes versions a cluster state says it runs are
// releases, patch included: `deckhouse: v1.72` is bad input at its field
// and line, not DKP 1.72.0 (D412). A request's platform versions are
// candidates and may be minors.
func TestClusterRunsARelease(t *testing.T) {
	for where, text := range map[string]string{
		"c.yaml:1: cluster.deckhouse: ":  "deckhouse: v1.72\nkubernetes: 1.30.8\n",
		"c.yaml:2: cluster.kubernetes: ": "deckhouse: 1.72.4\nkubernetes: '1.30'\n",
	} {
		_, err := ParseCluster("c.yaml", []byte(text))
		require.ErrorIs(t, err, model.ErrInvalidVersion, where)
		assert.ErrorContains(t, err, where, "the error names the file, the line and the field")
		assert.ErrorContains(t, err, "is a minor, not the release the cluster runs: give its patch too", where)
	}
	r, err := ParseRequest("r.yaml", []byte("platform: {deckhouse: '1.74', kubernetes: v1.31}\n"))
	require.NoError(t, err)
	assert.Equal(t, "1.74.0", r.Platform.Deckhouse.String())
}

func TestParseRequest(t *testing.T) {
	r, err := ParseRequest("r.yaml", []byte(`
enable: [hello-world]
disable: [test]
update: [prometheus]
updateAll: true
pin: {prometheus: "2.4"}
platform: {deckhouse: 1.74.0, kubernetes: 1.30.2}
strategy: direct
allowDisable: true
autoEnable: true
`))
	require.NoError(t, err)
	assert.Equal(t, []string{"hello-world"}, r.Enable)
	assert.Equal(t, []string{"test"}, r.Disable)
	assert.Equal(t, []string{"prometheus"}, r.Update)
	assert.True(t, r.UpdateAll && r.AllowDisable && r.AutoEnable)
	assert.Equal(t, "2.4.0", r.Pin["prometheus"].String())
	assert.Equal(t, "1.74.0", r.Platform.Deckhouse.String())
	assert.Equal(t, "1.30.2", r.Platform.Kubernetes.String())
	assert.Equal(t, model.StrategyDirect, r.Strategy)
}

func TestParseStateErrors(t *testing.T) {
	tests := []struct {
		name  string
		parse func(string, []byte) error
		text  string
		is    error
		field string
		line  int
	}{
		{"cluster unknown key", parseClusterErr, "deckhouse: 1.0.0\nkubernetes: 1.30.0\nmodule: {}\n", ErrUnknownKey, "", 3},
		{"cluster unknown module key", parseClusterErr, "modules:\n  a: {enabeld: true}\n", ErrUnknownKey, "", 2},
		{"cluster bad version", parseClusterErr, "deckhouse: one\n", model.ErrInvalidVersion, "cluster.deckhouse", 1},
		{"cluster bad module version", parseClusterErr, "modules:\n  a: {enabled: true, version: x}\n", model.ErrInvalidVersion, "cluster.modules.a.version", 2},
		{"cluster enabled not bool", parseClusterErr, "modules:\n  a: {enabled: maybe}\n", ErrSyntax, "", 2},
		{"request unknown key", parseRequestErr, "enable: [a]\nupgrade: [b]\n", ErrUnknownKey, "", 2},
		{"request bad pin", parseRequestErr, "enable: [a]\npin: {a: latest}\n", model.ErrInvalidVersion, "request.pin.a", 2},
		{"request bad platform", parseRequestErr, "platform:\n  kubernetes: new\n", model.ErrInvalidVersion, "request.platform.kubernetes", 2},
		{"request enable not a list", parseRequestErr, "enable: a\n", ErrWrongKind, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.parse("f.yaml", []byte(tt.text))
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.is)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "f.yaml", pe.File)
			assert.Equal(t, tt.line, pe.Line)
			if tt.field != "" {
				var fe *model.FieldError
				require.ErrorAs(t, err, &fe)
				assert.Equal(t, tt.field, fe.Path.String())
			}
		})
	}
}

func parseClusterErr(name string, data []byte) error {
	_, err := ParseCluster(name, data)
	return err
}

func parseRequestErr(name string, data []byte) error {
	_, err := ParseRequest(name, data)
	return err
}

func TestParseWhatIf(t *testing.T) {
	reqs, err := ParseWhatIf("w.yaml", []byte("scenarios:\n  - name: console\n    request: {enable: [console]}\n  - request: {platform: {kubernetes: 1.31.0}, updateAll: true}\n"))
	require.NoError(t, err)
	require.Len(t, reqs, 2)
	assert.Equal(t, "console", reqs[0].Name)
	assert.Equal(t, []string{"console"}, reqs[0].Request.Enable)
	assert.Equal(t, "scenario 2", reqs[1].Name)
	assert.Equal(t, "1.31.0", reqs[1].Request.Platform.Kubernetes.String())

	_, err = ParseWhatIf("w.yaml", []byte("scenarios: []\n"))
	assert.ErrorIs(t, err, model.ErrMissingField)
	_, err = ParseWhatIf("w.yaml", []byte("scenarios: {a: {}}\n"))
	assert.ErrorIs(t, err, ErrWrongKind, "not a batch: the file's error")
}

// A scenario that is bad input as written is that scenario's error, with
// its name and line; the batch's other scenarios are read.
func TestParseWhatIfBadScenarios(t *testing.T) {
	const batch = `scenarios:
  - name: good
    request: {enable: [a]}
  - name: bad pin
    request:
      pin: {a: soon}
  - name: misspelt
    requets: {}
  - just text
  - request: {platform: {kubernetes: next}}
`
	reqs, err := ParseWhatIf("w.yaml", []byte(batch))
	require.NoError(t, err)
	require.Len(t, reqs, 5)
	assert.NoError(t, reqs[0].Err)
	assert.Equal(t, []string{"a"}, reqs[0].Request.Enable)
	for _, tc := range []struct {
		i    int
		name string
		is   error
		line int
	}{
		{1, "bad pin", model.ErrInvalidVersion, 6},
		{2, "misspelt", ErrUnknownKey, 8},
		{3, "scenario 4", ErrWrongKind, 9},
		{4, "scenario 5", model.ErrInvalidVersion, 10},
	} {
		r := reqs[tc.i]
		assert.Equal(t, tc.name, r.Name)
		assert.Nil(t, r.Request, tc.name)
		require.ErrorIs(t, r.Err, tc.is, tc.name)
		file, line := PlacedIn(r.Err)
		assert.Equal(t, "w.yaml", file, tc.name)
		assert.Equal(t, tc.line, line, "%s: %v", tc.name, r.Err)
	}
}
