package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// slowCatalog is a catalog in the single-file format that takes a good
// second to load: 2,000 modules of 50 releases, each release requiring
// the module before it.
func slowCatalog() string {
	var b strings.Builder
	b.WriteString("modules:\n")
	for m := range 2000 {
		fmt.Fprintf(&b, "  - name: m%04d\n    releases:\n", m)
		for r := range 50 {
			dep := ""
			if m > 0 {
				dep = fmt.Sprintf(", modules: {m%04d: '>= 1.%d'}", m-1, r%10)
			}
			fmt.Fprintf(&b, "      - {version: 1.%d.0, requirements: {deckhouse: '>= 1.%d'%s}}\n", r, 50+r%20, dep)
		}
	}
	return b.String()
}

// A SIGTERM while serve loads its catalogs at start stops it at once,
// with a message that says so and exit 3; it does not read the rest of
// the catalog first, and serves nothing (D323).
func TestServeStoppedWhileLoading(t *testing.T) {
	path := writeTemp(t, "slow.yaml", slowCatalog())
	sigCtx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stopSignals()
	logs := &lines{}
	pr, pw := io.Pipe()
	go collectLines(pr, logs)
	code := make(chan int, 1)
	go func() {
		code <- run(sigCtx, []string{"serve", "--listen", "127.0.0.1:0", "--catalog", "slow=" + path}, io.Discard, pw)
		pw.Close()
	}()
	time.Sleep(100 * time.Millisecond)
	sent := time.Now()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	select {
	case c := <-code:
		took := time.Since(sent)
		assert.Equal(t, exitNoAnswer, c)
		assert.Less(t, took, time.Second, "serve stops without reading the rest of the catalog")
		t.Logf("serve returned %s after SIGTERM", took.Round(time.Millisecond))
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	pw.Close()
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "interrupted") }, 5*time.Second, 10*time.Millisecond)
	assert.Contains(t, logs.String(), "modsolver: interrupted while loading catalog slow: context canceled")
	assert.NotContains(t, logs.String(), "serving")
}

// A stop while a reload (SIGHUP) is still reading ends the reload: the
// previous catalogs serve until the stop, the half-read set is never
// swapped in, and the stop is as prompt and clean as any (D323).
func TestServeStopAbandonsReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prod.yaml")
	require.NoError(t, os.WriteFile(path, []byte("modules: [{name: a, releases: [{version: 1.0.0}]}]"), 0o600))
	s := startServe(t, "--listen", "127.0.0.1:0", "--catalog", path)
	modules := func() uint32 {
		list, err := s.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
		require.NoError(t, err)
		return list.GetCatalogs()[0].GetModules()
	}
	require.Equal(t, uint32(1), modules())

	require.NoError(t, os.WriteFile(path, []byte(slowCatalog()), 0o600))
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
	time.Sleep(100 * time.Millisecond)
	assert.Equal(t, uint32(1), modules(), "the previous set serves while the reload reads")
	sent := time.Now()
	assert.Equal(t, exitResolved, s.stop(t))
	took := time.Since(sent)
	assert.Less(t, took, 2*time.Second, "the stop does not wait for the reload")
	logs := s.logs.String()
	assert.Contains(t, logs, "reload abandoned for the stop")
	assert.NotContains(t, logs, "catalogs reloaded")
	t.Logf("serve returned %s after the stop, during a reload", took.Round(time.Millisecond))
}

// collectLines adds each line read from r to l until r ends.
func collectLines(r io.Reader, l *lines) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		l.add(sc.Text())
	}
}
