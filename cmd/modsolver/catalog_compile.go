package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
)

const compileUsage = `Usage:
  modsolver catalog compile PATH -o FILE [--catalog-format F] [--helm-subcharts M] [-v]
  modsolver catalog compile --source NAME=PRIORITY:PATH… -o FILE [flags]

compile reads a catalog in any format modsolver reads (or several sources,
merged as resolve merges them) and writes it to FILE as modsolver holds it
once loaded: modules, releases, requirements, channels, sources, policies,
loop rules, platform data and the load's notes. Every command that takes a
catalog (resolve, whatif, serve --catalog and its reload, catalog stats and
check) reads FILE in place of PATH, without parsing or importing it again.

FILE starts with a header that names the modsolver build that wrote it and
a SHA-256 of its contents. Another build of modsolver refuses it, as it
refuses a file whose contents changed: compile it again after an upgrade.
FILE is written beside itself under a temporary name and renamed into
place, so that a server that reloads it never reads half a file.

compile prints the file's size, the number of modules and releases, the
time the load and the writing took, and the time FILE takes to read back
(each compile reads it back once, as a check).

Exit codes: 0 written, 2 bad input (also a catalog with no module), 3
the file could not be written.
`

type compileFlags struct {
	path, format, output string
	subcharts            subchartsFlag
	sources              sourcesFlag
}

func runCatalogCompile(args []string, out, errOut io.Writer) int {
	var f compileFlags
	fs := flag.NewFlagSet("catalog compile", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), compileUsage+"\nFlags:\n"); fs.PrintDefaults() }
	fs.StringVar(&f.format, "catalog-format", "auto", "catalog `format`: auto, "+formatNames())
	fs.StringVar(&f.output, "o", "", "the compiled catalog `file` to write (required)")
	f.subcharts.register(fs)
	f.sources.register(fs)
	if i := positional(fs, args); i >= 0 {
		f.path = args[i]
		args = append(args[:i:i], args[i+1:]...)
	}
	if code, done := parseFlags(fs, args, out, errOut); done {
		return code
	}
	if err := f.check(); err != nil {
		fmt.Fprintf(errOut, "modsolver catalog compile: %v\nRun 'modsolver catalog compile --help' for usage.\n", err)
		return exitBadInput
	}
	start := time.Now()
	cat, rep, err := f.load()
	if err != nil {
		return fail(errOut, err)
	}
	printLoadReport(errOut, rep, f.sources.verbose)
	loaded := time.Since(start)
	if loaded > time.Second {
		fmt.Fprintf(errOut, "catalog compile: loaded %d modules, %d releases in %s; writing %s\n", cat.Len(), cat.ReleaseCount(), loaded.Round(time.Millisecond), f.output)
	}
	w, err := writeCompiled(f.output, cat, rep)
	if err != nil {
		return fail(errOut, err)
	}
	w.loaded = loaded
	if err := w.print(out, rep, cat); err != nil {
		return fail(errOut, err)
	}
	return exitResolved
}

func (f *compileFlags) check() error {
	switch {
	case f.output == "":
		return fmt.Errorf("-o FILE is required")
	case f.path == "" && len(f.sources.specs) == 0:
		return fmt.Errorf("a catalog PATH is required")
	case f.path != "" && len(f.sources.specs) > 0:
		return fmt.Errorf("give PATH or --source, not both")
	}
	return nil
}

// load reads PATH, or the sources merged into one catalog (R23); a
// catalog with no module has nothing to compile (D72).
func (f *compileFlags) load() (*model.Catalog, *catalog.Report, error) {
	var (
		cat *model.Catalog
		rep *catalog.Report
		err error
	)
	if len(f.sources.specs) > 0 {
		cat, rep, err = catalog.LoadSources(f.sources.specs, f.subcharts.options()...)
	} else {
		cat, rep, err = loadAs(f.path, f.format, f.subcharts.options()...)
	}
	if err == nil && cat.Len() == 0 {
		err = fmt.Errorf("%s: %w: nothing to compile", rep.Source, catalog.ErrNoModules)
	}
	return cat, rep, err
}

// written is what writing a compiled catalog took.
type written struct {
	path                 string
	size                 int64
	loaded, wrote, reads time.Duration
}

// writeCompiled writes cat to path through a temporary file in the same
// folder, renamed into place once complete, and reads it back.
func writeCompiled(path string, cat *model.Catalog, rep *catalog.Report) (*written, error) {
	start := time.Now()
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, fmt.Errorf("-o %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after a rename, there is nothing to remove
	err = tmp.Chmod(0o644)      // as os.Create would leave it under the usual umask
	if err == nil {
		err = catalog.WriteCompiled(tmp, cat, rep)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return nil, fmt.Errorf("-o %s: %w", path, err)
	}
	w := &written{path: path, wrote: time.Since(start)}
	start = time.Now()
	if _, _, err := catalog.Load(path); err != nil {
		return nil, fmt.Errorf("the compiled catalog does not read back: %w", err)
	}
	w.reads = time.Since(start)
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	w.size = info.Size()
	return w, nil
}

func (w *written) print(out io.Writer, rep *catalog.Report, cat *model.Catalog) error {
	_, err := fmt.Fprintf(out, "compiled catalog %s (%s): %d modules, %d releases\nwrote %s: %s; loading took %s, writing %s; it reads back in %s\n",
		rep.Source, rep.Format, cat.Len(), cat.ReleaseCount(), w.path, fileSize(w.size),
		w.loaded.Round(time.Millisecond), w.wrote.Round(time.Millisecond), w.reads.Round(100*time.Microsecond))
	return err
}

// fileSize writes n bytes in KiB below a mebibyte, else in MiB, with the
// exact count.
func fileSize(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB (%d bytes)", float64(n)/(1<<10), n)
	}
	return fmt.Sprintf("%s (%d bytes)", mebibytes(n), n)
}
