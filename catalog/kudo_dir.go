package catalog

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// A directory of KUDO packages: every operator.yaml under the root, at any
// depth, is one package. This reads the operators repository's layout
// (`<name>/<operatorVersion>/operator.yaml`), the variants layout
// (`<name>/<appVersion>_<operatorVersion>/operator.yaml`) and KUDO's test
// fixtures alike; folder names carry no meaning except as the targets of
// relative package paths. Other files (params.yaml, templates) are not read.

// kudoOperatorFile is the name of a package's metadata file.
const kudoOperatorFile = "operator.yaml"

// kudoFile is the part of operator.yaml that resolution reads; other keys
// are ignored, as KUDO's own resolution ignores them.
type kudoFile struct {
	APIVersion        string `yaml:"apiVersion"`
	Name              string `yaml:"name"`
	OperatorVersion   string `yaml:"operatorVersion"`
	Version           string `yaml:"version"` // the key before KUDO 0.10
	AppVersion        string `yaml:"appVersion"`
	KudoVersion       string `yaml:"kudoVersion"`
	KubernetesVersion string `yaml:"kubernetesVersion"`
	// Tasks is a list of kudoTask; before KUDO 0.10 it was a map of
	// resources by task name, which holds no dependency.
	Tasks yaml.Node `yaml:"tasks"`
}

// kudoTask is one task; only a KudoOperator task's spec is read.
type kudoTask struct {
	Name string    `yaml:"name"`
	Kind string    `yaml:"kind"`
	Spec yaml.Node `yaml:"spec"`
}

// kudoTaskSpec is the spec of a KudoOperator task.
type kudoTaskSpec struct {
	Package         string `yaml:"package"`
	OperatorVersion string `yaml:"operatorVersion"`
	AppVersion      string `yaml:"appVersion"`
}

// loadKUDODir reads a directory of KUDO packages (FormatKUDO). A package
// that is not valid YAML is skipped, with the reason in the report.
func loadKUDODir(root string) (*model.Catalog, *Report, error) {
	rep := &Report{Source: root, Format: FormatKUDO}
	var pkgs []*kudoPackage
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() != kudoOperatorFile {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		p, err := parseKudoFile(rel, data)
		if err != nil {
			rep.skip(filepath.ToSlash(rel), "unreadable: %v", err)
			return nil
		}
		p.file = path
		pkgs = append(pkgs, p)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%w: catalog %s: %w", model.ErrInvalidInput, root, err)
	}
	if len(pkgs) == 0 && len(rep.Skipped) == 0 {
		return nil, nil, &ParseError{File: root, Err: fmt.Errorf("%w: no %s under it, so it is not a KUDO package directory", model.ErrInvalidInput, kudoOperatorFile)}
	}
	return importKUDO(root, pkgs, rep)
}

// parseKudoFile reads one operator.yaml; rel is its path under the root.
func parseKudoFile(rel string, data []byte) (*kudoPackage, error) {
	node, err := parseNode(filepath.ToSlash(rel), data)
	if err != nil {
		return nil, err
	}
	dups := kudoLastKeyWins(node)
	var f kudoFile
	if err := decode(filepath.ToSlash(rel), node, &f); err != nil {
		return nil, err
	}
	p := &kudoPackage{
		path: filepath.ToSlash(filepath.Dir(rel)), dir: filepath.Dir(rel),
		name: f.Name, operatorVersion: f.OperatorVersion, appVersion: f.AppVersion,
		kudoVersion: f.KudoVersion, kubernetesVersion: f.KubernetesVersion,
		noAPIVersion: f.APIVersion == "",
	}
	if p.operatorVersion == "" && f.Version != "" {
		p.operatorVersion, p.oldKey = f.Version, true
	}
	if p.deps, err = kudoTasks(filepath.ToSlash(rel), &f.Tasks); err != nil {
		return nil, err
	}
	p.duplicateKeys = dups
	p.lines = fieldLines(node)
	return p, nil
}

// kudoLastKeyWins drops every top-level key of node that a later one
// repeats, as KUDO's YAML reading (through JSON) keeps the last value, and
// returns the keys dropped.
func kudoLastKeyWins(node *yaml.Node) []string {
	if node.Kind != yaml.MappingNode {
		return nil
	}
	last := map[string]int{}
	for i := 0; i+1 < len(node.Content); i += 2 {
		last[node.Content[i].Value] = i
	}
	var dups []string
	kept := node.Content[:0]
	for i := 0; i+1 < len(node.Content); i += 2 {
		if key := node.Content[i].Value; last[key] != i {
			dups = append(dups, key)
			continue
		}
		kept = append(kept, node.Content[i], node.Content[i+1])
	}
	node.Content = kept
	return dups
}

// kudoTasks reads the KudoOperator tasks of a task list; a task map (the
// form before KUDO 0.10) or no tasks hold none.
func kudoTasks(file string, node *yaml.Node) ([]kudoDependency, error) {
	if node.Kind != yaml.SequenceNode {
		return nil, nil
	}
	var tasks []kudoTask
	if err := decode(file, node, &tasks); err != nil {
		return nil, fmt.Errorf("tasks: %w", err)
	}
	var deps []kudoDependency
	for i, t := range tasks {
		line := 0
		if i < len(node.Content) {
			line = node.Content[i].Line
		}
		if t.Kind != kudoTaskKind || t.Spec.Kind == 0 {
			continue
		}
		var s kudoTaskSpec
		if err := decode(file, &t.Spec, &s); err != nil {
			return nil, fmt.Errorf("tasks: task %d: %w", i+1, err)
		}
		deps = append(deps, kudoDependency{task: cmp.Or(t.Name, fmt.Sprint(i+1)), pkg: s.Package, operatorVersion: s.OperatorVersion, appVersion: s.AppVersion, line: line})
	}
	return deps, nil
}

// isKUDODir reports whether root holds an operator.yaml at any depth.
func isKUDODir(root string) bool {
	found := errors.New("found")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == kudoOperatorFile {
			return found
		}
		return nil
	})
	return errors.Is(err, found)
}

// isDKPDir reports whether root has DKP's embedded/ or external/ folder.
func isDKPDir(root string) bool {
	return (&dkpLoader{root: root}).checkRoot() == nil
}
