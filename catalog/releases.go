package catalog

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// filePlatformRelease is DKP's release data of one minor (R31), as the DKP
// tree's releases.yaml and the single-file format's platformReleases
// write it: the Kubernetes minors with DKP's status of each, and the
// release.yaml requirements, values as strings ("1.29", "a,b", "true").
// Disruptions, basis and notes are what releases.yaml says of its
// sources and effects; they are not read.
type filePlatformRelease struct {
	Kubernetes   map[string]string `yaml:"kubernetes"`
	Requirements map[string]string `yaml:"requirements"`
	Disruptions  map[string]any    `yaml:"disruptions"`
	Basis        string            `yaml:"basis"`
	Notes        string            `yaml:"notes"`
}

// platformReleases reads the release data of each minor; an error names
// the minor and the key.
func platformReleases(byMinor map[string]filePlatformRelease) (model.PlatformReleases, error) {
	if len(byMinor) == 0 {
		return nil, nil
	}
	out := model.PlatformReleases{}
	for _, text := range slices.Sorted(maps.Keys(byMinor)) {
		minor, err := model.ParseMajorMinor(text)
		if err != nil {
			return nil, fmt.Errorf("release %q: %w", text, err)
		}
		r, err := byMinor[text].toModel()
		if err != nil {
			return nil, fmt.Errorf("release %s: %w", text, err)
		}
		out[minor] = r
	}
	return out, nil
}

func (fr filePlatformRelease) toModel() (*model.PlatformRelease, error) {
	r := &model.PlatformRelease{Kubernetes: map[model.MajorMinor]model.KubernetesStatus{}}
	for text, status := range fr.Kubernetes {
		minor, err := model.ParseMajorMinor(text)
		if err != nil {
			return nil, fmt.Errorf("kubernetes: %w", err)
		}
		if r.Kubernetes[minor], err = model.ParseKubernetesStatus(status); err != nil {
			return nil, fmt.Errorf("kubernetes %s: %w", text, err)
		}
	}
	req := &r.Requirements
	for _, key := range slices.Sorted(maps.Keys(fr.Requirements)) {
		value := strings.TrimSpace(fr.Requirements[key])
		var err error
		switch key {
		case "k8s":
			req.K8s, err = minorOf(value)
		case "autoK8sVersion":
			req.AutoK8sVersion, err = minorOf(value)
		case "disabledModules":
			req.DisabledModules = moduleList(value)
		case "migratedModules":
			req.MigratedModules = moduleList(value)
		default:
			if req.Other == nil {
				req.Other = map[string]string{}
			}
			req.Other[key] = value // R32: the live cluster decides it
		}
		if err != nil {
			return nil, fmt.Errorf("requirements.%s: %w", key, err)
		}
	}
	return r, nil
}

// minorOf reads a Kubernetes version of a requirement ("1.29",
// "1.25.0") as its minor; "" is none.
func minorOf(text string) (model.MajorMinor, error) {
	if text == "" {
		return model.MajorMinor{}, nil
	}
	v, err := model.ParseVersion(text)
	if err != nil {
		return model.MajorMinor{}, err
	}
	return model.MinorOf(v), nil
}

// moduleList reads a comma list of module names, as release.yaml writes
// them; empty entries are dropped, and the names sorted.
func moduleList(text string) []string {
	var out []string
	for _, name := range strings.Split(text, ",") {
		if name = strings.TrimSpace(name); name != "" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
