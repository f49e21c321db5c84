package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
)

// catalogInput is the flags that name the catalog resolve and whatif
// read (catalogFlags are the catalog subcommands'): --catalog, a file
// or a DKP module-source directory (the embedded demo catalog without
// one), its format, how a Helm index's subcharts read, and --source for
// several catalogs at once.
type catalogInput struct {
	catalog, catalogFormat string
	subcharts              subchartsFlag
	sources                sourcesFlag
}

func (f *catalogInput) register(fs *flag.FlagSet) {
	fs.StringVar(&f.catalog, "catalog", "", "catalog `path`: a file or a DKP module-source directory (default: the embedded demo catalog)")
	fs.StringVar(&f.catalogFormat, "catalog-format", "auto", "catalog `format`: auto, "+formatNames())
	f.subcharts.register(fs)
	f.sources.register(fs)
}

// readCatalog reads the catalog the flags name.
func (f *catalogInput) readCatalog(errOut io.Writer) (*model.Catalog, error) {
	return f.sources.catalog(f.catalog, f.catalogFormat, errOut, f.subcharts.options()...)
}

// sourcesFlag is the repeatable --source name=priority:path (R23, D78):
// several catalogs, of any format and mixed, resolved as sources.
type sourcesFlag struct {
	specs []catalog.SourceSpec
	// verbose is -v: the loader's report in full, every skipped path and
	// warning, instead of one line that counts them (D211); and resolve's
	// table ends with the solver's figures.
	verbose bool
}

func (s *sourcesFlag) register(fs *flag.FlagSet) {
	fs.BoolVar(&s.verbose, "v", false, "list every path the catalog loader skipped and every warning it gave (by default one line counts them); resolve's table then ends with the solver's figures (variables, clauses, solves, µs)")
	fs.Func("source", "a source `name=priority:path` (repeatable, R23): the catalog at path, in any format, with that priority (higher wins); instead of --catalog", func(text string) error {
		spec, err := catalog.ParseSourceSpec(text)
		if err == nil && slices.ContainsFunc(s.specs, func(o catalog.SourceSpec) bool { return o.Name == spec.Name }) {
			err = fmt.Errorf("another --source is named %s already: give each source a name of its own", spec.Name)
		}
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

// catalogFlag names the flag that gives the catalog: --source when any
// are given, else --catalog.
func (s *sourcesFlag) catalogFlag(path string) string {
	if len(s.specs) > 0 && path == "" {
		return "--source"
	}
	return "--catalog"
}

// demoCatalogNote adds to bad input found in the files a user gave that
// the catalog they met is the embedded demo catalog, which no flag named
// (path is --catalog's): an unknown module may be the catalog's fault.
func (s *sourcesFlag) demoCatalogNote(path string, err error) error {
	if path != "" || len(s.specs) > 0 || !errors.Is(err, model.ErrInvalidInput) {
		return err
	}
	return fmt.Errorf("%w (the catalog is the embedded demo catalog, since --catalog was not given)", err)
}
