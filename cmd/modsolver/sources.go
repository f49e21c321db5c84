package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
)

// sourcesFlag is the repeatable --source name=priority:path (R23, D78):
// several catalogs, of any format and mixed, resolved as sources.
type sourcesFlag struct {
	specs []catalog.SourceSpec
	// verbose is -v: the loader's report in full, every skipped path and
	// warning, instead of one line that counts them (D211).
	verbose bool
}

func (s *sourcesFlag) register(fs *flag.FlagSet) {
	fs.BoolVar(&s.verbose, "v", false, "list every path the catalog loader skipped and every warning it gave (by default one line counts them)")
	fs.Func("source", "a source `name=priority:path` (repeatable, R23): the catalog at path, in any format, with that priority (higher wins); instead of --catalog", func(text string) error {
		spec, err := catalog.ParseSourceSpec(text)
		s.specs = append(s.specs, spec)
		return err
	})
}

// catalog loads the sources when any are given, else the --catalog path.
func (s *sourcesFlag) catalog(path, format string, errOut io.Writer, opts ...catalog.Option) (*model.Catalog, error) {
	if len(s.specs) == 0 {
		return loadCatalog(path, format, errOut, s.verbose, opts...)
	}
	if path != "" {
		return nil, fmt.Errorf("%w: give --catalog or --source, not both", errUsage)
	}
	cat, rep, err := catalog.LoadSources(s.specs, opts...)
	if err != nil {
		return nil, err
	}
	printLoadReport(errOut, rep, s.verbose)
	return cat, nil
}
