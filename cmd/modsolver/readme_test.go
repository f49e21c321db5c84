package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
)

// The README's examples are the ```console blocks: each `$ modsolver …`
// line (with `\` continuations) is a command run as written from the root
// of the checkout, and an `$ echo $?` after it gives the exit status it
// documents (none: 0). Lines that follow a command up to the next `$` are
// its output, which the README may shorten with `…`; `> FILE` sends the
// output to FILE, which must not be empty. A console block may hold nothing else, so that a reader
// can paste it. ```sh blocks are synopses and make targets, not run.

// readmeExample is one documented command line.
type readmeExample struct {
	line     int      // where the command starts in the README
	args     []string // after "modsolver"
	redirect string   // the file of `> FILE`, or ""
	showsOut bool     // the README shows output for it
	wantCode int
}

// readmeExamples reads the examples out of the README at path.
func readmeExamples(t *testing.T, path string) []readmeExample {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()

	var (
		out        []readmeExample
		inFence    bool
		console    bool
		awaitCode  bool // the last command was `echo $?`; its value comes next
		pending    string
		pendingAt  int
		lineNumber int
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lineNumber++
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if !inFence {
				info := strings.Fields(strings.TrimPrefix(line, "```"))
				inFence, console = true, len(info) > 0 && info[0] == "console"
			} else {
				require.False(t, awaitCode, "README.md:%d: `echo $?` without its value", lineNumber)
				inFence, console = false, false
			}
			continue
		}
		if !inFence || !console {
			continue
		}
		if pending != "" {
			pending += " " + strings.TrimSpace(line)
		} else if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			require.False(t, awaitCode, "README.md:%d: `echo $?` without its value", lineNumber)
			pending, pendingAt = cmd, lineNumber
		} else {
			if awaitCode {
				code, err := strconv.Atoi(strings.TrimSpace(line))
				require.NoError(t, err, "README.md:%d: `echo $?` must be followed by the exit status", lineNumber)
				out[len(out)-1].wantCode = code
				awaitCode = false
			} else if len(out) > 0 && strings.TrimSpace(line) != "" && strings.TrimSpace(line) != "…" {
				out[len(out)-1].showsOut = true
			}
			continue
		}
		if strings.HasSuffix(pending, `\`) {
			pending = strings.TrimSuffix(pending, `\`)
			continue
		}
		cmd := strings.TrimSpace(pending)
		pending = ""
		if cmd == "echo $?" {
			require.NotEmpty(t, out, "README.md:%d: `echo $?` before any command", pendingAt)
			awaitCode = true
			continue
		}
		words, err := shellWords(cmd)
		require.NoError(t, err, "README.md:%d", pendingAt)
		require.True(t, len(words) > 1 && words[0] == "modsolver",
			"README.md:%d: a console block runs only `modsolver …` and `echo $?`, not %q", pendingAt, cmd)
		ex := readmeExample{line: pendingAt, args: words[1:]}
		if i := indexOf(ex.args, ">"); i >= 0 {
			require.Equal(t, len(ex.args)-2, i, "README.md:%d: `> FILE` ends a command", pendingAt)
			ex.redirect, ex.args = ex.args[i+1], ex.args[:i]
		}
		out = append(out, ex)
	}
	require.NoError(t, sc.Err())
	require.False(t, inFence, "README.md: a fenced block is not closed")
	return out
}

func indexOf(words []string, w string) int {
	for i, x := range words {
		if x == w {
			return i
		}
	}
	return -1
}

// shellWords splits a command line as sh would for the README's needs:
// words separated by blanks, single and double quotes without escapes.
func shellWords(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word
		quote rune
	)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c in %q", quote, s)
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

// TestREADMEExamples runs every example of the README through the command
// line in this process, from the root of the checkout, and holds each to
// the exit status the README documents. Examples on ../shared skip with
// the shared folder's notice when it is absent.
func TestREADMEExamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	examples := readmeExamples(t, filepath.Join(root, "README.md"))

	// The README shows each interface of the command line; losing an
	// example (or its console marking) is a failure, not a quiet pass.
	commands := map[string]bool{}
	for _, ex := range examples {
		commands[strings.Join(ex.args[:min(2, len(ex.args))], " ")] = true
		commands[ex.args[0]] = true
	}
	for _, c := range []string{"resolve", "whatif", "catalog check"} {
		require.True(t, commands[c], "the README has no runnable `modsolver %s` example", c)
	}

	t.Chdir(root)
	for _, ex := range examples {
		t.Run(fmt.Sprintf("line%d_%s", ex.line, ex.args[0]), func(t *testing.T) {
			args := append([]string(nil), ex.args...)
			for i, a := range args {
				if strings.Contains(a, "../shared/") {
					args[i] = strings.ReplaceAll(a, "../shared", shared.Dir(t))
				}
			}
			r := runCLI(t, args...)
			require.Equal(t, ex.wantCode, r.code,
				"README.md:%d: modsolver %s\nstdout:\n%s\nstderr:\n%s", ex.line, strings.Join(ex.args, " "), r.out, r.errOut)
			if ex.showsOut || ex.redirect != "" {
				require.NotEmpty(t, r.out, "README.md:%d: the README shows output, the command printed none", ex.line)
			}
		})
	}
}

// TestREADMEExampleParsing holds the reader of examples to a README of its
// own, so that a change to the marking cannot quietly run nothing.
func TestREADMEExampleParsing(t *testing.T) {
	md := "# x\n\n```sh\nmodsolver resolve --not-run\n```\n\n" +
		"```console\n$ modsolver resolve --catalog a.yaml \\\n    --cluster 'b c.yaml'\nstatus: resolved\n$ echo $?\n1\n" +
		"$ modsolver whatif -o html > page.html\n```\n\n```\n$ modsolver not-console\n```\n"
	path := writeTemp(t, "README.md", md)
	got := readmeExamples(t, path)
	require.Equal(t, []readmeExample{
		{line: 8, args: []string{"resolve", "--catalog", "a.yaml", "--cluster", "b c.yaml"}, showsOut: true, wantCode: 1},
		{line: 13, args: []string{"whatif", "-o", "html"}, redirect: "page.html"},
	}, got)
}
