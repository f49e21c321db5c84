package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// `modsolver version` says which build it is (D400): the version set at
// build time, else the module's, else the checkout's revision.
func TestVersionText(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "a409c0ba8695f00d"}, {Key: "vcs.time", Value: "2026-11-29T06:35:20Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	assert.Equal(t, "devel a409c0ba8695 2026-11-29T06:35:20Z+dirty, go1.26.8", versionText(info, true))
	assert.Equal(t, "v1.4.0", versionText(&debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, true))
	assert.Contains(t, versionText(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true), "no VCS information")
	assert.Contains(t, versionText(nil, false), "unknown")
	version = "1.2.3"
	defer func() { version = "" }()
	assert.Equal(t, "1.2.3", versionText(info, true), "the version set at build time wins")
}
