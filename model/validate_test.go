package model

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validateCatalog holds an external module a (1.0.0, 1.1.0), another
// external module b (2.0.0) and a built-in module core.
func validateCatalog(t *testing.T) *Catalog {
	t.Helper()
	cat, err := NewCatalog([]*Module{
		{Name: "a", Releases: []*Release{{Version: MustParseVersion("1.0.0")}, {Version: MustParseVersion("1.1.0")}}},
		{Name: "b", Releases: []*Release{{Version: MustParseVersion("2.0.0")}}},
		{Name: "core", Embedded: true},
	})
	require.NoError(t, err)
	return cat
}

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

func enabledAt(v string) ModuleState {
	s := ModuleState{Enabled: yes()}
	if v != "" {
		s.Version = MustParseVersion(v)
	}
	return s
}

func validCluster() *ClusterState {
	return &ClusterState{
		Deckhouse:      MustParseVersion("1.73.0"),
		Kubernetes:     MustParseVersion("1.29.6"),
		Edition:        "ce",
		Bundle:         "Default",
		ReleaseChannel: "stable",
		Modules:        map[string]ModuleState{},
	}
}

// wantErr is one expected problem: the sentinel it wraps and the field it
// names.
type wantErr struct {
	sentinel error
	field    string
}

// fieldErrors flattens err, including InputErrors, into its FieldErrors.
func fieldErrors(err error) []*FieldError {
	var out []*FieldError
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		if fe, ok := e.(*FieldError); ok {
			out = append(out, fe)
			return
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return out
}

// requireErrors checks that err reports exactly the wanted problems, each
// a *FieldError at its field that wraps its sentinel and ErrInvalidInput.
func requireErrors(t *testing.T, err error, want []wantErr) {
	t.Helper()
	if len(want) == 0 {
		require.NoError(t, err)
		return
	}
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrInvalidInput), "every input error is ErrInvalidInput: %v", err)
	var fe *FieldError
	require.True(t, errors.As(err, &fe), "want a *FieldError in %v", err)
	if len(want) == 1 {
		assert.Equal(t, want[0].field, fe.Path.String())
	}
	got := fieldErrors(err)
	require.Len(t, got, len(want), "errors: %v", err)
	for _, w := range want {
		assert.True(t, errors.Is(err, w.sentinel), "want %v in %v", w.sentinel, err)
		found := false
		for _, g := range got {
			if g.Path.String() == w.field {
				found = true
				assert.True(t, errors.Is(g, w.sentinel), "field %s: want %v, got %v", w.field, w.sentinel, g)
				assert.Contains(t, g.Error(), w.field, "the message names the field")
			}
		}
		assert.True(t, found, "no error at field %s in %v", w.field, err)
	}
}

func TestClusterStateValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *ClusterState)
		want   []wantErr
	}{
		{name: "valid, no modules", change: func(c *ClusterState) {}},
		{name: "valid, no release channel", change: func(c *ClusterState) { c.ReleaseChannel = "" }},
		{name: "valid, enabled module at a known release", change: func(c *ClusterState) {
			c.Modules["a"] = enabledAt("1.1.0")
		}},
		{name: "valid, enabled without a version (D8)", change: func(c *ClusterState) {
			c.Modules["a"] = enabledAt("")
		}},
		{name: "valid, disabled module", change: func(c *ClusterState) {
			c.Modules["a"] = ModuleState{Enabled: no()}
		}},
		{name: "valid, disabled module the catalog does not know (D9)", change: func(c *ClusterState) {
			c.Modules["ghost"] = ModuleState{Enabled: no()}
		}},
		{name: "valid, unconfigured module with a channel", change: func(c *ClusterState) {
			c.Modules["a"] = ModuleState{Channel: "alpha"}
		}},
		{name: "valid, built-in module enabled at any version", change: func(c *ClusterState) {
			c.Modules["core"] = enabledAt("1.73.0")
		}},
		{name: "valid, every channel", change: func(c *ClusterState) {
			c.ReleaseChannel = "rock-solid"
			c.Modules["a"] = ModuleState{Enabled: yes(), Version: MustParseVersion("1.0.0"), Channel: "early-access"}
		}},
		{
			name:   "missing deckhouse version",
			change: func(c *ClusterState) { c.Deckhouse = nil },
			want:   []wantErr{{ErrMissingField, "cluster.deckhouse"}},
		},
		{
			name:   "missing kubernetes version",
			change: func(c *ClusterState) { c.Kubernetes = nil },
			want:   []wantErr{{ErrMissingField, "cluster.kubernetes"}},
		},
		{
			name:   "unknown release channel",
			change: func(c *ClusterState) { c.ReleaseChannel = "nightly" },
			want:   []wantErr{{ErrInvalidValue, "cluster.releaseChannel"}},
		},
		{
			name: "unknown module channel",
			change: func(c *ClusterState) {
				c.Modules["a"] = ModuleState{Enabled: yes(), Version: MustParseVersion("1.0.0"), Channel: "Stable"}
			},
			want: []wantErr{{ErrInvalidValue, "cluster.modules.a.channel"}},
		},
		{
			name:   "enabled module the catalog does not know",
			change: func(c *ClusterState) { c.Modules["ghost"] = enabledAt("") },
			want:   []wantErr{{ErrUnknownModule, "cluster.modules.ghost"}},
		},
		{
			name: "deployed module the catalog does not know",
			change: func(c *ClusterState) {
				c.Modules["ghost"] = ModuleState{Version: MustParseVersion("1.0.0")}
			},
			want: []wantErr{{ErrUnknownModule, "cluster.modules.ghost"}},
		},
		{
			name: "disabled module with a deployed version",
			change: func(c *ClusterState) {
				c.Modules["a"] = ModuleState{Enabled: no(), Version: MustParseVersion("1.0.0")}
			},
			want: []wantErr{{ErrInvalidValue, "cluster.modules.a.version"}},
		},
		{
			// Catalogs prune old tags: the version is answered, with a warning (D73).
			name:   "deployed version not in the catalog is valid (D73)",
			change: func(c *ClusterState) { c.Modules["a"] = enabledAt("1.0.5") },
		},
		{
			name: "deployed version without enabled",
			change: func(c *ClusterState) {
				c.Modules["a"] = ModuleState{Version: MustParseVersion("1.0.0")}
			},
			want: []wantErr{{ErrMissingField, "cluster.modules.a.enabled"}},
		},
		{
			name: "every problem is reported at once",
			change: func(c *ClusterState) {
				c.Deckhouse, c.Kubernetes, c.ReleaseChannel = nil, nil, "nightly"
				c.Modules["a"] = enabledAt("9.9.9")
				c.Modules["ghost"] = enabledAt("1.0.0")
			},
			want: []wantErr{
				{ErrMissingField, "cluster.deckhouse"},
				{ErrMissingField, "cluster.kubernetes"},
				{ErrInvalidValue, "cluster.releaseChannel"},
				{ErrUnknownModule, "cluster.modules.ghost"},
			},
		},
	}
	cat := validateCatalog(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := validCluster()
			tc.change(c)
			requireErrors(t, c.Validate(cat), tc.want)
		})
	}
}

func TestRequestValidate(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want []wantErr
	}{
		{name: "valid, empty"},
		{name: "valid, everything", req: Request{
			Enable: []string{"a"}, Disable: []string{"b"}, Update: []string{"a", "b"}, UpdateAll: true,
			Pin:      map[string]Version{"a": MustParseVersion("1.0.0")},
			Platform: Platform{Deckhouse: MustParseVersion("1.74.0"), Kubernetes: MustParseVersion("1.30.2")},
			Strategy: StrategyDirect, AllowDisable: true, AutoEnable: true,
		}},
		{name: "valid, sequential strategy", req: Request{Strategy: StrategySequential}},
		{name: "valid, pin with a v prefix", req: Request{Pin: map[string]Version{"a": MustParseVersion("v1.1.0")}}},
		{name: "valid, built-in module enabled", req: Request{Enable: []string{"core"}}},
		{
			name: "unknown strategy",
			req:  Request{Strategy: "fast"},
			want: []wantErr{{ErrInvalidValue, "request.strategy"}},
		},
		{
			name: "unknown module in enable",
			req:  Request{Enable: []string{"a", "ghost"}},
			want: []wantErr{{ErrUnknownModule, "request.enable[1]"}},
		},
		{
			name: "unknown module in disable",
			req:  Request{Disable: []string{"ghost"}},
			want: []wantErr{{ErrUnknownModule, "request.disable[0]"}},
		},
		{
			name: "unknown module in update",
			req:  Request{Update: []string{"b", "a", "ghost"}},
			want: []wantErr{{ErrUnknownModule, "request.update[2]"}},
		},
		{
			name: "module listed twice in enable",
			req:  Request{Enable: []string{"a", "b", "a"}},
			want: []wantErr{{ErrDuplicate, "request.enable[2]"}},
		},
		{
			name: "module listed twice in update",
			req:  Request{Update: []string{"b", "b"}},
			want: []wantErr{{ErrDuplicate, "request.update[1]"}},
		},
		{
			name: "module both enabled and disabled",
			req:  Request{Enable: []string{"a"}, Disable: []string{"a"}},
			want: []wantErr{{ErrConflict, "request.disable"}},
		},
		{
			name: "pin of an unknown module",
			req:  Request{Pin: map[string]Version{"ghost": MustParseVersion("1.0.0")}},
			want: []wantErr{{ErrUnknownModule, "request.pin.ghost"}},
		},
		{
			name: "pin of a built-in module",
			req:  Request{Pin: map[string]Version{"core": MustParseVersion("1.73.0")}},
			want: []wantErr{{ErrInvalidValue, "request.pin.core"}},
		},
		{
			name: "pin without a version",
			req:  Request{Pin: map[string]Version{"a": nil}},
			want: []wantErr{{ErrMissingField, "request.pin.a"}},
		},
		{
			name: "pin of a version the catalog does not list",
			req:  Request{Pin: map[string]Version{"a": MustParseVersion("1.2.0")}},
			want: []wantErr{{ErrUnknownVersion, "request.pin.a"}},
		},
		{
			name: "module both pinned and disabled",
			req:  Request{Pin: map[string]Version{"a": MustParseVersion("1.0.0")}, Disable: []string{"a"}},
			want: []wantErr{{ErrConflict, "request.pin.a"}},
		},
		{
			name: "every problem is reported at once",
			req: Request{
				Strategy: "fast",
				Enable:   []string{"ghost"},
				Disable:  []string{"b", "b"},
				Pin:      map[string]Version{"a": MustParseVersion("3.0.0"), "core": MustParseVersion("1.0.0")},
			},
			want: []wantErr{
				{ErrInvalidValue, "request.strategy"},
				{ErrUnknownModule, "request.enable[0]"},
				{ErrDuplicate, "request.disable[1]"},
				{ErrUnknownVersion, "request.pin.a"},
				{ErrInvalidValue, "request.pin.core"},
			},
		},
	}
	cat := validateCatalog(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			requireErrors(t, tc.req.Validate(cat, validCluster()), tc.want)
		})
	}
}

func TestEffectiveStrategy(t *testing.T) {
	assert.Equal(t, StrategySequential, (&Request{}).EffectiveStrategy())
	assert.Equal(t, StrategySequential, (&Request{Strategy: StrategySequential}).EffectiveStrategy())
	assert.Equal(t, StrategyDirect, (&Request{Strategy: StrategyDirect}).EffectiveStrategy())
}
