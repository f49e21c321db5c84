package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
)

// The browser check of `whatif -o html` runs in `make browser-check`
// (and so in .ci/run), which installs Debian's chromium and names it in
// envChromium; `make test` leaves it out. envScreenshots names a folder
// for the screenshots a person looks at: the demo matrix (committed as
// docs/whatif-demo.png) and the real DKP tree's, at a desktop and a
// narrow width.
const (
	envChromium    = "MODSOLVER_CHROMIUM"
	envScreenshots = "MODSOLVER_SCREENSHOTS"
)

// probe runs in the page as the browser lays it out and writes what a
// person sees into the DOM, which --dump-dom prints: the grid's visible
// cells, each one's text and background colour, the group sections, and
// the resources the page fetched.
const probe = `<script>
window.addEventListener("load", () => {
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const cells = [...document.querySelectorAll("table.grid td")].filter(visible).map(td => ({
    row: td.parentElement.querySelector("th").innerText.trim(),
    col: document.querySelectorAll("table.grid thead th")[td.cellIndex].innerText.trim(),
    text: td.innerText.replace(/\s+/g, " ").trim(),
    background: getComputedStyle(td).backgroundColor,
  }));
  const groups = [...document.querySelectorAll("article.group")].filter(visible).map(a => a.innerText);
  const fetched = performance.getEntriesByType("resource").map(r => r.name);
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({cells, groups, fetched});
  document.body.appendChild(out);
});
</script>`

// narrowProbe runs in a page laid out at a phone's width and writes what
// the page's own layout says into the harness around it (lookNarrow): the
// width, how wide the page is (wider than the window: it scrolls
// sideways), how wide the grid is against its box, and where a row header
// is once the grid is scrolled to its far end.
const narrowProbe = `<script>
window.addEventListener("load", () => {
  const wrap = document.querySelector(".grid-wrap");
  const head = document.querySelector("table.grid tbody th");
  const seen = {width: window.innerWidth, page: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)};
  if (wrap && head) {
    seen.wrapScroll = wrap.scrollWidth;
    seen.wrapClient = wrap.clientWidth;
    wrap.scrollLeft = wrap.scrollWidth;
    seen.headLeft = head.getBoundingClientRect().left;
    seen.wrapLeft = wrap.getBoundingClientRect().left;
  }
  const out = window.parent.document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify(seen);
  window.parent.document.body.appendChild(out);
});
</script>`

type narrowSeen struct {
	Width, Page, WrapScroll, WrapClient int
	HeadLeft, WrapLeft                  float64
}

// lookNarrow lays page out width pixels wide and returns what
// narrowProbe saw. Headless chromium lays a window out 500 pixels wide
// at the least, whatever --window-size says, so the page is shown in an
// iframe of that width (srcdoc, so that its probe may write into the
// harness, whose DOM --dump-dom prints).
func lookNarrow(t *testing.T, bin, page string, width int) narrowSeen {
	t.Helper()
	inner := strings.Replace(page, "</body>", narrowProbe+"</body>", 1)
	harness := fmt.Sprintf(`<!DOCTYPE html><html><body style="margin:0"><iframe style="width:%dpx;height:1000px;border:0" srcdoc="%s"></iframe></body></html>`,
		width, html.EscapeString(inner))
	path := filepath.Join(t.TempDir(), "narrow.html")
	require.NoError(t, os.WriteFile(path, []byte(harness), 0o600))
	dom := runChromium(t, bin, "--window-size=800,1000", "--virtual-time-budget=5000", "--dump-dom", "file://"+path)
	m := regexp.MustCompile(`(?s)<pre id="probe">(.*?)</pre>`).FindSubmatch(dom)
	require.NotNil(t, m, "the probe ran in the page")
	var s narrowSeen
	require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &s))
	require.Equal(t, width, s.Width, "the page was laid out at the width asked")
	return s
}

type seen struct {
	Cells []struct {
		Row, Col, Text, Background string
	}
	Groups  []string
	Fetched []string
}

func chromium(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(envChromium)
	if bin == "" {
		t.Skipf("%s is not set: `make browser-check` installs chromium and runs this check", envChromium)
	}
	return bin
}

// runChromium runs headless chromium with the flags this machine's
// closed network needs, on a fresh profile.
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}
	out, err := exec.CommandContext(ctx, bin, append(base, args...)...).Output()
	require.NoError(t, err, "chromium %v", args)
	return out
}

// look loads page in chromium and returns what the probe saw.
func look(t *testing.T, bin, page string) seen {
	t.Helper()
	path := filepath.Join(t.TempDir(), "probed.html")
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(page, "</body>", probe+"</body>", 1)), 0o600))
	dom := runChromium(t, bin, "--virtual-time-budget=5000", "--dump-dom", "file://"+path)
	m := regexp.MustCompile(`(?s)<pre id="probe">(.*?)</pre>`).FindSubmatch(dom)
	require.NotNil(t, m, "the probe ran in the page")
	var s seen
	require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &s))
	return s
}

// screenshot saves page as name in the screenshots folder, at width ×
// height pixels.
func screenshot(t *testing.T, bin, page, name, size string) {
	t.Helper()
	dir := os.Getenv(envScreenshots)
	if dir == "" {
		return
	}
	path := filepath.Join(t.TempDir(), "page.html")
	require.NoError(t, os.WriteFile(path, []byte(page), 0o600))
	abs, err := filepath.Abs(filepath.Join(dir, name))
	require.NoError(t, err)
	runChromium(t, bin, "--window-size="+size, "--screenshot="+abs, "file://"+path)
	info, err := os.Stat(abs)
	require.NoError(t, err)
	assert.NotZero(t, info.Size())
}

func TestWhatIfHTMLInBrowser(t *testing.T) {
	bin := chromium(t)
	code, page, errOut := whatif(t, "--deckhouse", "1.72.4,1.73.0,1.74.0,1.75.1", "--kubernetes", "1.29.1,1.30.8,1.31.2,1.32.1", "-o", "html")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	s := look(t, bin, page)

	assert.Empty(t, s.Fetched, "the page fetches nothing")
	require.Len(t, s.Cells, 16, "one visible cell per pair of versions")
	byPlace := map[string]int{}
	for i, c := range s.Cells {
		byPlace[c.Row+"×"+c.Col] = i
	}
	blocked := s.Cells[byPlace["1.72.4×1.32.1"]]
	assert.Equal(t, "B blocked: csi-ceph (warning)", blocked.Text)
	ready := s.Cells[byPlace["1.73.0×1.31.2"]]
	assert.Equal(t, "C ok, 6 to update", ready.Text)
	assert.NotEqual(t, ready.Background, blocked.Background, "a blocked cell and a ready one look different")
	for _, c := range s.Cells {
		switch {
		case strings.Contains(c.Text, "blocked"):
			assert.Equal(t, blocked.Background, c.Background, "every blocked cell alike: %s", c.Text)
		default:
			assert.Equal(t, ready.Background, c.Background, "every ready cell alike: %s", c.Text)
		}
	}
	require.Len(t, s.Groups, 3, "one section per group")
	assert.Contains(t, s.Groups[1], "deckhouse 1.72.4, 1.73.0, 1.74.0, 1.75.1 × kubernetes 1.32.1")
	assert.Contains(t, s.Groups[1], "switch module csi-ceph to channel early-access (head 0.5.0)")
	assert.Contains(t, s.Groups[2], "commander-agent update: 1.4.0 → 1.5.0")

	// With the risk accepted, the blocked cells change colour, and an
	// error (the next minor blocked) looks different from both.
	_, accepted, _ := whatif(t, "--deckhouse", "1.72.4", "--kubernetes", "1.31.2,1.32.1", "--accept", "csi-ceph", "-o", "html")
	_, next, _ := whatif(t, "--deckhouse", "1.72.4", "--kubernetes", "1.32.1", "-o", "html")
	a, n := look(t, bin, accepted), look(t, bin, next)
	require.Len(t, a.Cells, 2)
	require.Len(t, n.Cells, 1)
	assert.Equal(t, "B blocked: csi-ceph (warning, accepted)", a.Cells[1].Text)
	assert.Equal(t, "A blocked: csi-ceph (error)", n.Cells[0].Text)
	colours := map[string]bool{ready.Background: true, blocked.Background: true, a.Cells[1].Background: true, n.Cells[0].Background: true}
	assert.Len(t, colours, 4, "ready, warning, accepted and error each have a colour of their own")

	screenshot(t, bin, page, "whatif-demo.png", "1200,1000")
	screenshot(t, bin, page, "whatif-demo-narrow.png", "390,1000")
}

// TestWhatIfHTMLOnDKPInBrowser: the real DKP tree's matrix, five DKP by
// four Kubernetes versions, on the cluster of a dump with its nodes, fits
// on one screen; the cluster's own cell is marked, and each group says
// its route (R33).
func TestWhatIfHTMLOnDKPInBrowser(t *testing.T) {
	bin := chromium(t)
	dkp := shared.Path(t, "data", "dkp")
	_, page, errOut := whatif(t, "--catalog", dkp, "--cluster", "../../docs/examples/kubectl/cluster-default.yaml", "--edition", "ee",
		"--deckhouse", "1.73.3,1.74.0,1.75.0,1.76.0,1.77.0", "--kubernetes", "1.31.6,1.32,1.33,1.34", "-o", "html")
	require.Contains(t, page, "</html>", errOut)
	s := look(t, bin, page)
	assert.Len(t, s.Cells, 20)
	assert.Empty(t, s.Fetched)
	own := 0
	for _, c := range s.Cells {
		if strings.HasPrefix(c.Text, "* ") {
			own++
			assert.Equal(t, "1.73.3", c.Row, "the cluster's own cell")
			assert.Equal(t, "1.31.6", c.Col, "the cluster's own cell")
		}
	}
	assert.Equal(t, 1, own, "one cell is the cluster's own")
	groups := strings.Join(s.Groups, "\n")
	assert.Contains(t, groups, "route: 1.74/1.31 → 1.75/1.31 → 1.76/1.31 → 1.76/1.32", "a group says its route")
	assert.Contains(t, groups, "ingressNginx: 1.12", "a gate the dump's IngressNginxController decides")
	assert.Contains(t, page, "cluster: DKP 1.73.3, Kubernetes 1.31.6 (../../docs/examples/kubectl/cluster-default.yaml)", "D405: the page names its cluster")
	assert.Contains(t, page, "verdict: not ready", "D405: and its verdict")
	screenshot(t, bin, page, "whatif-dkp.png", "1280,900")
	screenshot(t, bin, page, "whatif-dkp-narrow.png", "390,844")
}

// TestWhatIfHTMLNarrowInBrowser: at a phone's 420 pixels, a matrix wider
// than the page scrolls in its own box, its row headers (the DKP
// versions) staying in view, and the page itself does not scroll
// sideways; the DKP tree's page fits as well (D416).
func TestWhatIfHTMLNarrowInBrowser(t *testing.T) {
	bin := chromium(t)
	code, page, errOut := whatif(t, "--deckhouse", "1.72.4,1.73.0,1.74.0,1.75.1", "--kubernetes", "1.28.0,1.29.1,1.30.8,1.31.2,1.32.1,1.33.0", "-o", "html")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	s := lookNarrow(t, bin, page, 420)
	assert.LessOrEqual(t, s.Page, s.Width, "the page does not scroll sideways")
	assert.Greater(t, s.WrapScroll, s.WrapClient, "the grid is wider than the page, and scrolls in its own box")
	assert.GreaterOrEqual(t, s.HeadLeft, s.WrapLeft-0.5, "scrolled to its far end, the grid keeps its row headers in view")
	screenshot(t, bin, page, "whatif-wide-420.png", "420,1000")

	dkp := shared.Path(t, "data", "dkp")
	_, page, errOut = whatif(t, "--catalog", dkp, "--cluster", "../../docs/examples/kubectl/cluster-default.yaml", "--edition", "ee",
		"--deckhouse", "1.73.3,1.74.0,1.75.0,1.76.0,1.77.0", "--kubernetes", "1.31.6,1.32,1.33,1.34", "-o", "html")
	require.Contains(t, page, "</html>", errOut)
	s = lookNarrow(t, bin, page, 420)
	assert.LessOrEqual(t, s.Page, s.Width, "the DKP tree's page does not scroll sideways either")
	screenshot(t, bin, page, "whatif-dkp-420.png", "420,1000")
}
