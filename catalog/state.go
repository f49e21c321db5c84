package catalog

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// fileCluster is the cluster state format (DESIGN.md §2).
type fileCluster struct {
	Deckhouse      string                     `yaml:"deckhouse"`
	Kubernetes     string                     `yaml:"kubernetes"`
	Edition        string                     `yaml:"edition"`
	Bundle         string                     `yaml:"bundle"`
	ReleaseChannel string                     `yaml:"releaseChannel"`
	Modules        map[string]fileModuleState `yaml:"modules"`
	// Platform holds other platform components, such as openshift (R22).
	Platform map[string]string `yaml:"platform"`
	// AllowExperimentalModules lets Experimental releases be selected (R25).
	AllowExperimentalModules bool `yaml:"allowExperimentalModules"`
	// AllowedExperimentalModules names the modules whose Experimental
	// releases may be selected when the others' may not (R25).
	AllowedExperimentalModules []string `yaml:"allowedExperimentalModules"`
	// KubernetesVersion is the cluster configuration's kubernetesVersion:
	// Automatic, or the minor the cluster is pinned to (R31).
	KubernetesVersion string `yaml:"kubernetesVersion"`
	// Facts are what the live cluster says for the gates of DKP's
	// releases (R32): a scalar, or a list of scalars.
	Facts map[string]any `yaml:"facts"`
}

type fileModuleState struct {
	Enabled *bool  `yaml:"enabled"`
	Version string `yaml:"version"`
	Channel string `yaml:"channel"`
	// Source is the source the deployed release came from (R23).
	Source string `yaml:"source"`
	// Settings and SettingsVersion are the module's ModuleConfig settings
	// and the settings version they are written for (R34).
	Settings        map[string]any `yaml:"settings"`
	SettingsVersion int            `yaml:"settingsVersion"`
}

// fileRequest is the request format (DESIGN.md §2).
type fileRequest struct {
	Enable       []string          `yaml:"enable"`
	Disable      []string          `yaml:"disable"`
	Update       []string          `yaml:"update"`
	UpdateAll    bool              `yaml:"updateAll"`
	Pin          map[string]string `yaml:"pin"`
	Platform     filePlatform      `yaml:"platform"`
	Strategy     string            `yaml:"strategy"`
	AllowDisable bool              `yaml:"allowDisable"`
	AutoEnable   bool              `yaml:"autoEnable"`
	Report       string            `yaml:"report"`
	// Sources fixes the source of a module (R23).
	Sources map[string]string `yaml:"sources"`
	// Devel is Helm's --devel (R6).
	Devel bool `yaml:"devel"`
}

// filePlatform holds candidate versions: deckhouse, kubernetes, and any
// other component the cluster state declares (R22).
type filePlatform struct {
	Deckhouse  string            `yaml:"deckhouse"`
	Kubernetes string            `yaml:"kubernetes"`
	Components map[string]string `yaml:",inline"`
}

// LoadCluster reads a cluster state file.
func LoadCluster(path string) (*model.ClusterState, error) {
	data, err := readInput("cluster state", path)
	if err != nil {
		return nil, err
	}
	return ParseCluster(path, data)
}

// ParseCluster reads a cluster state from data; name is used in errors.
func ParseCluster(name string, data []byte) (*model.ClusterState, error) {
	node, err := parseNode(name, data)
	if err != nil {
		return nil, err
	}
	return clusterFromNode(name, node)
}

// LoadRequest reads a request file.
func LoadRequest(path string) (*model.Request, error) {
	data, err := readInput("request", path)
	if err != nil {
		return nil, err
	}
	return ParseRequest(path, data)
}

// ParseRequest reads a request from data; name is used in errors. An
// empty file (nothing, or white space and comments) is the empty request,
// as {} is: a request file that asks nothing.
func ParseRequest(name string, data []byte) (*model.Request, error) {
	node, err := parseNode(name, data)
	if errors.Is(err, ErrEmptyFile) {
		return &model.Request{}, nil
	}
	if err != nil {
		return nil, err
	}
	return requestFromNode(name, node)
}

func readInput(what, path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", model.ErrInvalidInput, what, err)
	}
	return data, nil
}

// clusterFromNode reads the cluster state that node, in file, holds; an
// error names the line of its field.
func clusterFromNode(file string, node *yaml.Node) (*model.ClusterState, error) {
	c, err := clusterFields(file, node)
	return c, withLine(node, err)
}

func clusterFields(file string, node *yaml.Node) (*model.ClusterState, error) {
	var fc fileCluster
	if err := decodeStrict(file, node, &fc); err != nil {
		return nil, err
	}
	c := &model.ClusterState{
		Edition:        fc.Edition,
		Bundle:         fc.Bundle,
		ReleaseChannel: fc.ReleaseChannel,
		Modules:        make(map[string]model.ModuleState, len(fc.Modules)),

		AllowExperimentalModules:   fc.AllowExperimentalModules,
		AllowedExperimentalModules: fc.AllowedExperimentalModules,
	}
	if err := readKubernetesVersion(c, fc.KubernetesVersion); err != nil {
		return nil, placed(file, model.Field("cluster", "kubernetesVersion"), err)
	}
	for key, v := range fc.Facts {
		text, err := factText(v)
		if err != nil {
			return nil, placed(file, model.Field("cluster", "facts").Key(key), err)
		}
		if c.Facts == nil {
			c.Facts = map[string]string{}
		}
		c.Facts[key] = text
	}
	var err error
	if c.Deckhouse, err = runningVersion(fc.Deckhouse); err != nil {
		return nil, placed(file, model.Field("cluster", "deckhouse"), err)
	}
	if c.Kubernetes, err = runningVersion(fc.Kubernetes); err != nil {
		return nil, placed(file, model.Field("cluster", "kubernetes"), err)
	}
	if c.Platform, err = componentVersions(file, model.Field("cluster", "platform"), fc.Platform); err != nil {
		return nil, err
	}
	for name, fs := range fc.Modules {
		s := model.ModuleState{Enabled: fs.Enabled, Channel: fs.Channel, Source: fs.Source}
		if s.Version, err = optionalVersion(fs.Version); err != nil {
			return nil, placed(file, model.Field("cluster", "modules").Key(name).Field("version"), err)
		}
		if fs.Settings != nil || fs.SettingsVersion != 0 {
			if s.Settings, err = model.NewSettings(fs.SettingsVersion, fs.Settings); err != nil {
				return nil, placed(file, model.Field("cluster", "modules").Key(name).Field("settings"), err)
			}
		}
		c.Modules[name] = s
	}
	return c, nil
}

func requestFromNode(file string, node *yaml.Node) (*model.Request, error) {
	var fr fileRequest
	if err := decodeStrict(file, node, &fr); err != nil {
		return nil, err
	}
	return fr.toModel(file, node)
}

// toModel reads the request that node, in file, holds; an error names
// the line of its field.
func (fr *fileRequest) toModel(file string, node *yaml.Node) (*model.Request, error) {
	r, err := fr.model(file)
	return r, withLine(node, err)
}

// withLine gives err, a *ParseError of a field of the document node
// (cluster.deckhouse, request.pin.x), the line of that field when it has
// none.
func withLine(node *yaml.Node, err error) error {
	var pe *ParseError
	if errors.As(err, &pe) && pe.Line == 0 {
		var fe *model.FieldError
		if errors.As(pe.Err, &fe) && len(fe.Path) > 0 {
			pe.Line = lineOf(node, fe.Path[1:]).line
		}
	}
	return err
}

func (fr *fileRequest) model(file string) (*model.Request, error) {
	r := &model.Request{
		Enable:       fr.Enable,
		Disable:      fr.Disable,
		Update:       fr.Update,
		UpdateAll:    fr.UpdateAll,
		Strategy:     model.Strategy(fr.Strategy),
		AllowDisable: fr.AllowDisable,
		AutoEnable:   fr.AutoEnable,
		Report:       model.Report(fr.Report),
		Sources:      fr.Sources,
		Devel:        fr.Devel,
	}
	var err error
	if r.Platform.Deckhouse, err = optionalVersion(fr.Platform.Deckhouse); err != nil {
		return nil, placed(file, model.Field("request", "platform", "deckhouse"), err)
	}
	if r.Platform.Kubernetes, err = optionalVersion(fr.Platform.Kubernetes); err != nil {
		return nil, placed(file, model.Field("request", "platform", "kubernetes"), err)
	}
	if r.Platform.Components, err = componentVersions(file, model.Field("request", "platform"), fr.Platform.Components); err != nil {
		return nil, err
	}
	if len(fr.Pin) > 0 {
		r.Pin = make(map[string]model.Version, len(fr.Pin))
		for name, text := range fr.Pin {
			if r.Pin[name], err = model.ParseVersion(text); err != nil {
				return nil, placed(file, model.Field("request", "pin").Key(name), err)
			}
		}
	}
	return r, nil
}

// componentVersions parses the versions of platform components (R22).
func componentVersions(file string, field model.Path, texts map[string]string) (map[string]model.Version, error) {
	out, bad, err := parseVersions(texts)
	if err != nil {
		return nil, placed(file, field.Key(bad), err)
	}
	return out, nil
}

// optionalVersion parses a version that may be left out.
func optionalVersion(text string) (model.Version, error) {
	if text == "" {
		return nil, nil
	}
	return model.ParseVersion(text)
}

// runningVersion reads the DKP or Kubernetes version a cluster runs, a
// release with its patch (D412); "" is nil.
func runningVersion(text string) (model.Version, error) {
	if text == "" {
		return nil, nil
	}
	return model.ParseRunningVersion(text)
}

// placed names the file and the field of err.
func placed(file string, field model.Path, err error) error {
	return &ParseError{File: file, Err: &model.FieldError{Path: field, Err: err}}
}

// readKubernetesVersion reads kubernetesVersion (R31): Automatic, where
// the cluster follows DKP's default Kubernetes minor, or a minor it is
// pinned to, which the cluster's kubernetes version already says.
func readKubernetesVersion(c *model.ClusterState, text string) error {
	switch text {
	case "":
	case "Automatic":
		c.KubernetesAutomatic = true
	default:
		if _, err := model.ParseVersion(text); err != nil {
			return fmt.Errorf("%w: %q: Automatic or a Kubernetes version", model.ErrInvalidValue, text)
		}
	}
	return nil
}

// factText reads one fact (R32) as text: a scalar as written, a list of
// scalars joined by commas.
func factText(v any) (string, error) {
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			text, err := factText(e)
			if err != nil {
				return "", err
			}
			parts[i] = text
		}
		slices.Sort(parts) // a list of facts is a set: the order it was written in does not count (R15)
		return strings.Join(parts, ","), nil
	case map[string]any:
		return "", fmt.Errorf("%w: a fact is a value or a list of values, not a mapping", model.ErrInvalidValue)
	case nil:
		return "", nil
	}
	return fmt.Sprint(v), nil
}
