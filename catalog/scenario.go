package catalog

import (
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// Scenario is one scenario file (DESIGN.md §7): a catalog, a cluster state
// and a request, with what the answer is expected to be.
type Scenario struct {
	File        string
	Name        string
	Description string
	Rules       []string
	Catalog     *model.Catalog
	// CatalogDoc is the catalog as one document a service reads inline
	// (the gRPC requests' inline_catalog): the scenario's catalog: as
	// written, or its catalogFile when that is a file; nil for a
	// directory or several sources, which are not one document.
	CatalogDoc []byte
	Report     *Report
	Cluster    *model.ClusterState
	Request    *model.Request
	Expect     Expectation
}

// Expectation is a scenario's expect section.
type Expectation struct {
	// Status is "resolved" or "unsatisfiable".
	Status string `yaml:"status"`
	// Modules are checked by name; modules not listed are not checked.
	Modules map[string]ModuleExpectation `yaml:"modules"`
	// Listed, when set, is exactly the modules the answer lists (used with
	// report: changes).
	Listed []string `yaml:"listed"`
	// PlanOrder lists modules that must appear in the plan in this order.
	PlanOrder []string `yaml:"planOrder"`
	// PlanMentions are substrings of the plan: of every step, all its
	// fields (R26's confirmation, for one).
	PlanMentions []string `yaml:"planMentions"`
	// WarningsMentions and WarningsNotMentions are substrings that the
	// answer's warnings must and must not hold (R25).
	WarningsMentions    []string `yaml:"warningsMentions"`
	WarningsNotMentions []string `yaml:"warningsNotMentions"`
	// AssumptionsMentions are substrings of the answer's assumptions (R32).
	AssumptionsMentions []string `yaml:"assumptionsMentions"`
	// Route is the answer's route (R33), each step as "1.74/1.31": the
	// DKP and Kubernetes minors after it; nil: not checked.
	Route       []string                `yaml:"route"`
	Explanation *ExplanationExpectation `yaml:"explanation"`
	// Error is true when the input is bad: exit code 2, no answer.
	Error bool `yaml:"error"`
	// ErrorMentions are substrings of the error message.
	ErrorMentions []string `yaml:"errorMentions"`
}

// ModuleExpectation is what one module's result must hold.
type ModuleExpectation struct {
	Action           string   `yaml:"action"`
	Version          string   `yaml:"version"`
	HeldBackMentions []string `yaml:"heldBackMentions"`
	// HeldBackNotMentions are substrings heldBack must not hold.
	HeldBackNotMentions []string `yaml:"heldBackNotMentions"`
	Path                []string `yaml:"path"`
	// PathNoteMentions are substrings of pathNote (D70); an empty list
	// given as [] means the note must be empty.
	PathNoteMentions []string `yaml:"pathNoteMentions"`
	// Source is toSource and Moved the move flag (R23); nil: not checked.
	Source *string `yaml:"source"`
	Moved  *bool   `yaml:"moved"`
}

// ExplanationExpectation is what an explanation must and must not say.
type ExplanationExpectation struct {
	Mentions    []string `yaml:"mentions"`
	NotMentions []string `yaml:"notMentions"`
	MaxFacts    int      `yaml:"maxFacts"`
}

type fileScenario struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Rules       []string  `yaml:"rules"`
	Catalog     yaml.Node `yaml:"catalog"`
	CatalogFile string    `yaml:"catalogFile"`
	// Catalogs lists several sources (R23) instead of one catalog.
	Catalogs []fileSource `yaml:"catalogs"`
	Cluster  yaml.Node    `yaml:"cluster"`
	Request  yaml.Node    `yaml:"request"`
	Expect   Expectation  `yaml:"expect"`
}

// LoadScenario reads a scenario file. A catalogFile is relative to the
// scenario's folder. When the scenario itself is well formed but its
// inputs are not, LoadScenario returns the scenario (without the inputs)
// together with the error, so that a test can check an expected error.
func LoadScenario(path string) (*Scenario, error) {
	data, err := readInput("scenario", path)
	if err != nil {
		return nil, err
	}
	node, err := parseNode(path, data)
	if err != nil {
		return nil, err
	}
	var fs fileScenario
	if err := decodeStrict(path, node, &fs); err != nil {
		return nil, err
	}
	sc := &Scenario{File: path, Name: fs.Name, Description: fs.Description, Rules: fs.Rules, Expect: fs.Expect}
	return sc, fs.build(sc, path)
}

// build reads the three inputs of a scenario into sc.
func (fs *fileScenario) build(sc *Scenario, path string) error {
	var err error
	switch {
	case len(fs.Catalogs) > 0 && (fs.CatalogFile != "" || fs.Catalog.Kind != 0):
		return &ParseError{File: path, Err: fmt.Errorf("%w: give catalogs or a single catalog, not both", model.ErrInvalidInput)}
	case len(fs.Catalogs) > 0:
		sc.Catalog, sc.Report, err = loadFileSources(path, fs.Catalogs)
	case fs.CatalogFile != "" && fs.Catalog.Kind != 0:
		return &ParseError{File: path, Line: fs.Catalog.Line, Err: fmt.Errorf("%w: give catalog or catalogFile, not both", model.ErrInvalidInput)}
	case fs.CatalogFile != "":
		file := relativeTo(path, fs.CatalogFile)
		if sc.Catalog, sc.Report, err = Load(file); err == nil {
			if info, statErr := os.Stat(file); statErr == nil && info.Mode().IsRegular() {
				sc.CatalogDoc, err = os.ReadFile(file)
			}
		}
	case fs.Catalog.Kind != 0:
		if sc.Catalog, sc.Report, err = parseFile(path, &fs.Catalog); err == nil {
			sc.CatalogDoc, err = yaml.Marshal(&fs.Catalog)
		}
	default:
		return &ParseError{File: path, Err: fmt.Errorf("%w: a scenario needs catalog or catalogFile", model.ErrMissingField)}
	}
	if err != nil {
		return err
	}
	if fs.Cluster.Kind == 0 {
		return &ParseError{File: path, Err: fmt.Errorf("%w: a scenario needs cluster", model.ErrMissingField)}
	}
	if sc.Cluster, err = clusterFromNode(path, &fs.Cluster); err != nil {
		return err
	}
	sc.Request = &model.Request{}
	if fs.Request.Kind != 0 {
		sc.Request, err = requestFromNode(path, &fs.Request)
	}
	return err
}

// relativeTo resolves target against the folder of file, unless it is
// absolute.
func relativeTo(file, target string) string {
	if filepath.IsAbs(target) {
		return target
	}
	return filepath.Join(filepath.Dir(file), target)
}
