package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// A cluster state may be given as DKP describes it to kubectl (DESIGN.md
// §2): `kubectl get moduleconfigs,modules,modulereleases,modulesources,
// moduleupdatepolicies,deckhousereleases -o yaml`, a List or several YAML
// documents. This file reads such a dump into a KubectlDump;
// kubectl_kinds.go reads each kind of resource, and kubectl_state.go
// turns a dump into the cluster state of a resolution.
//
// A dump is read with DKP's tolerance (D151): a resource carries fields
// the API server fills in, and DKP adds fields over time, so keys
// modsolver does not read are ignored, and a resource of another kind
// (a dump often holds more) is counted in Skipped. A value of the wrong
// type in a key modsolver reads is an error naming the file and line.

// dkpGroup is the API group of DKP's resources.
const dkpGroup = "deckhouse.io"

// KubectlDump is what modsolver reads from a dump of DKP's resources.
type KubectlDump struct {
	// Cluster holds what the dump says: the DKP version (the Deployed
	// DeckhouseRelease), the bundle and default channel (the deckhouse
	// ModuleConfig), and each module's state. Its Kubernetes version and
	// edition are never set: a dump does not hold them.
	Cluster *model.ClusterState
	// Sources maps a module to the ModuleSource it came from. They are kept
	// apart from Cluster because they matter only with several sources
	// (R23); see State.
	Sources map[string]string
	// Observed holds, for each module the dump has a Module object of and
	// no ModuleConfig, whether DKP runs it (its EnabledByModuleManager
	// condition): what runs outranks the bundle's defaults (State).
	Observed map[string]bool
	// Skipped counts the resources the dump holds that modsolver does not
	// read, by "Kind apiVersion".
	Skipped map[string]int
	// Warnings list what was read with a part left out.
	Warnings []string
	// file names the dump in errors.
	file string
}

// Summary renders what the read skipped and warned about, one line each,
// for a command's standard error; "" when there is nothing to say.
func (d *KubectlDump) Summary() string {
	var lines []string
	for _, kind := range slices.Sorted(maps.Keys(d.Skipped)) {
		lines = append(lines, fmt.Sprintf("kubectl dump: skipped %d %s (not read by modsolver)", d.Skipped[kind], kind))
	}
	for _, w := range d.Warnings {
		lines = append(lines, "kubectl dump: "+w)
	}
	return strings.Join(lines, "\n")
}

// kubeHeader is what every resource and a List have in common.
type kubeHeader struct {
	APIVersion string   `yaml:"apiVersion"`
	Kind       string   `yaml:"kind"`
	Metadata   kubeMeta `yaml:"metadata"`
}

type kubeMeta struct {
	Name   string            `yaml:"name"`
	Labels map[string]string `yaml:"labels"`
}

// kubeList is kubectl's List of several resources.
type kubeList struct {
	Items []yaml.Node `yaml:"items"`
}

// IsKubectlDump reports whether data looks like kubectl's output rather
// than modsolver's cluster-state file: its first document has a kind and
// an apiVersion, which the cluster-state format does not define.
func IsKubectlDump(data []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return false
		}
		root := documentRoot(&doc)
		if root == nil {
			continue
		}
		var h kubeHeader
		if root.Decode(&h) != nil {
			return false
		}
		return h.Kind != "" && h.APIVersion != ""
	}
}

// LoadKubectl reads a dump of DKP's resources from a file.
func LoadKubectl(path string) (*KubectlDump, error) {
	data, err := readInput("cluster state", path)
	if err != nil {
		return nil, err
	}
	return ParseKubectl(path, data)
}

// ParseKubectl reads a dump of DKP's resources: a List, several YAML
// documents, or a single resource. name is used in errors.
func ParseKubectl(name string, data []byte) (*KubectlDump, error) {
	r := newDumpReader(name)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	docs := 0
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, yamlSyntaxError(name, data, err)
		}
		root := documentRoot(&doc)
		if root == nil {
			continue
		}
		docs++
		if err := r.document(root); err != nil {
			return nil, err
		}
	}
	if docs == 0 {
		return nil, &ParseError{File: name, Err: ErrEmptyFile}
	}
	if r.read == 0 {
		var held []string
		for _, kind := range slices.Sorted(maps.Keys(r.dump.Skipped)) {
			held = append(held, fmt.Sprintf("%d %s", r.dump.Skipped[kind], kind))
		}
		return nil, &ParseError{File: name, Err: fmt.Errorf("%w: the dump holds none of DKP's resources (it holds %s); give the output of `%s`",
			model.ErrMissingField, strings.Join(held, ", "), dumpKinds)}
	}
	return r.finish()
}

// documentRoot is the content of a YAML document, or nil for an empty
// one, such as the one before a leading "---".
func documentRoot(doc *yaml.Node) *yaml.Node {
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil
	}
	return root
}

// document reads one YAML document: a List or a single resource.
func (r *dumpReader) document(node *yaml.Node) error {
	h, err := r.header(node)
	if err != nil {
		return err
	}
	if h.Kind != "List" {
		return r.resource(node, h)
	}
	var list kubeList
	if err := decode(r.file, node, &list); err != nil {
		return err
	}
	for i := range list.Items {
		item := &list.Items[i]
		ih, err := r.header(item)
		if err != nil {
			return err
		}
		if err := r.resource(item, ih); err != nil {
			return err
		}
	}
	return nil
}

// header reads the kind, apiVersion and metadata of a resource.
func (r *dumpReader) header(node *yaml.Node) (kubeHeader, error) {
	var h kubeHeader
	if node.Kind != yaml.MappingNode {
		return h, &ParseError{File: r.file, Line: node.Line, Err: fmt.Errorf("%w: a Kubernetes resource is a mapping with kind and apiVersion", ErrSyntax)}
	}
	if err := decode(r.file, node, &h); err != nil {
		return h, err
	}
	if h.Kind == "" || h.APIVersion == "" {
		return h, &ParseError{File: r.file, Line: node.Line, Err: fmt.Errorf("%w: a resource without kind or apiVersion; is this a modsolver cluster-state file?", model.ErrMissingField)}
	}
	return h, nil
}

// resource reads one resource of a kind kubeKinds lists, and counts any
// other.
func (r *dumpReader) resource(node *yaml.Node, h kubeHeader) error {
	group, version, found := strings.Cut(h.APIVersion, "/")
	if !found { // the core group: "v1"
		group, version = "", h.APIVersion
	}
	kind, ok := kubeKinds[h.Kind]
	if !ok || group != kind.group || !slices.Contains(kind.versions, version) {
		r.dump.Skipped[h.Kind+" "+h.APIVersion]++
		return nil
	}
	if h.Metadata.Name == "" {
		return r.errAt(node, model.ErrMissingField, "%s without metadata.name", h.Kind)
	}
	r.read++
	return kind.read(r, node, h.Metadata)
}

// kubeKind is how one kind of resource is read.
type kubeKind struct {
	// group is the kind's API group: DKP's, or "" for Kubernetes' core.
	group string
	// versions are the API versions of the kind whose shape is read; the
	// kind's other versions are counted as skipped.
	versions []string
	read     func(r *dumpReader, node *yaml.Node, meta kubeMeta) error
}

// kubeKinds lists the kinds a dump is read for, each with its reader:
// DKP's modules and releases (kubectl_kinds.go), and the objects that
// decide the gates of the live cluster (kubectl_live.go, R32).
var kubeKinds = map[string]kubeKind{
	"ModuleConfig":           {dkpGroup, []string{"v1alpha1"}, (*dumpReader).moduleConfig},
	"Module":                 {dkpGroup, []string{"v1alpha1"}, (*dumpReader).module},
	"ModuleRelease":          {dkpGroup, []string{"v1alpha1"}, (*dumpReader).moduleRelease},
	"ModuleSource":           {dkpGroup, []string{"v1alpha1"}, (*dumpReader).moduleSource},
	"ModuleUpdatePolicy":     {dkpGroup, []string{"v1alpha1", "v1alpha2"}, (*dumpReader).updatePolicy},
	"ModulePullOverride":     {dkpGroup, []string{"v1alpha1", "v1alpha2"}, (*dumpReader).pullOverride},
	"DeckhouseRelease":       {dkpGroup, []string{"v1alpha1"}, (*dumpReader).deckhouseRelease},
	"IngressNginxController": {dkpGroup, []string{"v1", "v1alpha1"}, (*dumpReader).ingressController},
	"ClusterConfiguration":   {dkpGroup, []string{"v1"}, (*dumpReader).clusterConfiguration},
	"Node":                   {"", []string{"v1"}, (*dumpReader).node},
}

// dumpKinds names what a dump should hold, for the error of one that
// holds none of it.
const dumpKinds = "kubectl get moduleconfigs,modules,modulereleases,modulesources,moduleupdatepolicies,modulepulloverrides,deckhousereleases,ingressnginxcontrollers,nodes -o yaml"

// errAt is bad input at node's line.
func (r *dumpReader) errAt(node *yaml.Node, sentinel error, format string, args ...any) error {
	return &ParseError{File: r.file, Line: node.Line, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}
