package catalog

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// SourceSpec names one source to load (R23): its name, its priority and
// the path of its catalog, in any format Load reads.
type SourceSpec struct {
	Name     string
	Priority int
	Path     string
}

// ParseSourceSpec reads the CLI's source syntax, name=priority:path (D78).
// The priority may be left out (name=path, priority 0); a path that
// itself holds a colon needs the priority.
func ParseSourceSpec(text string) (SourceSpec, error) {
	name, rest, ok := strings.Cut(text, "=")
	if !ok || name == "" || rest == "" {
		return SourceSpec{}, fmt.Errorf("%w: source %q: want name=priority:path", model.ErrInvalidInput, text)
	}
	spec := SourceSpec{Name: name, Path: rest}
	if prio, path, ok := strings.Cut(rest, ":"); ok {
		n, err := strconv.Atoi(prio)
		if err != nil {
			return SourceSpec{}, fmt.Errorf("%w: source %q: priority %q is not an integer", model.ErrInvalidInput, text, prio)
		}
		spec.Priority, spec.Path = n, path
	}
	if spec.Path == "" {
		return SourceSpec{}, fmt.Errorf("%w: source %q has no path", model.ErrInvalidInput, text)
	}
	return spec, nil
}

// LoadSources loads every source's catalog and merges them into one
// (model.Merge). The report sums the sources' reports.
func LoadSources(specs []SourceSpec, opts ...Option) (*model.Catalog, *Report, error) {
	sources := make([]model.Source, len(specs))
	reports := make([]*Report, len(specs))
	for i, spec := range specs {
		cat, rep, err := Load(spec.Path, opts...)
		if err != nil {
			return nil, nil, fmt.Errorf("source %s: %w", spec.Name, err)
		}
		sources[i] = model.Source{Name: spec.Name, Priority: spec.Priority, Catalog: cat}
		reports[i] = rep
	}
	return mergeSources(sources, reports)
}

func mergeSources(sources []model.Source, reports []*Report) (*model.Catalog, *Report, error) {
	cat, err := model.Merge(sources)
	if err != nil {
		return nil, nil, err
	}
	return cat, sumReports(sources, reports), nil
}

// sumReports joins the sources' reports into one that names each source.
func sumReports(sources []model.Source, reports []*Report) *Report {
	if len(reports) == 1 {
		return reports[0]
	}
	out := &Report{}
	var names, formats []string
	for i, r := range reports {
		names = append(names, fmt.Sprintf("%s=%d:%s", sources[i].Name, sources[i].Priority, r.Source))
		formats = append(formats, string(r.Format))
		out.Modules += r.Modules
		out.Embedded += r.Embedded
		out.Releases += r.Releases
		out.Prereleases += r.Prereleases
		out.Skipped = append(out.Skipped, r.Skipped...)
		out.Warnings = append(out.Warnings, r.Warnings...)
		for what, n := range r.Counts {
			out.add(what, n)
		}
	}
	out.Source = strings.Join(names, ", ")
	out.Format = Format(strings.Join(formats, "+"))
	return out
}

// fileSource is one entry of a scenario's catalogs list (DESIGN §2).
type fileSource struct {
	Name        string    `yaml:"name"`
	Priority    int       `yaml:"priority"`
	Catalog     yaml.Node `yaml:"catalog"`
	CatalogFile string    `yaml:"catalogFile"`
}

// loadFileSources reads a scenario's catalogs list.
func loadFileSources(path string, list []fileSource) (*model.Catalog, *Report, error) {
	sources := make([]model.Source, len(list))
	reports := make([]*Report, len(list))
	for i, fs := range list {
		var err error
		sources[i].Name, sources[i].Priority = fs.Name, fs.Priority
		switch {
		case fs.CatalogFile != "" && fs.Catalog.Kind != 0:
			return nil, nil, &ParseError{File: path, Line: fs.Catalog.Line, Err: fmt.Errorf("%w: catalogs[%d]: give catalog or catalogFile, not both", model.ErrInvalidInput, i)}
		case fs.CatalogFile != "":
			sources[i].Catalog, reports[i], err = Load(relativeTo(path, fs.CatalogFile))
		case fs.Catalog.Kind != 0:
			sources[i].Catalog, reports[i], err = parseFile(path, &fs.Catalog)
		default:
			return nil, nil, &ParseError{File: path, Err: fmt.Errorf("%w: catalogs[%d] needs catalog or catalogFile", model.ErrMissingField, i)}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	cat, rep, err := mergeSources(sources, reports)
	if err != nil {
		return nil, nil, &ParseError{File: path, Err: err}
	}
	return cat, rep, nil
}

// sourceLabel names a source spec for logs.
func (s SourceSpec) String() string {
	return fmt.Sprintf("%s=%d:%s", s.Name, s.Priority, filepath.Clean(s.Path))
}
