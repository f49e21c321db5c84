package catalog

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// The objects of a dump that say what the live cluster is (R32, D390):
// Nodes (their OS, kernel, container runtime and kubelet), DKP's
// IngressNginxControllers (their controller version), its
// ClusterConfiguration (kubernetesVersion: Automatic) and its
// ModulePullOverrides. They become the cluster state's facts, under the
// names model.GateFor gives them, so that a dump decides the release
// gates that read them as DKP's own checks do: the oldest node's OS
// version per OS and its kernel, whether every node runs containerd and
// whether one still runs containerd v1, the lowest controller version.

// kubeNode is a core/v1 Node; only its nodeInfo is read.
type kubeNode struct {
	Status struct {
		NodeInfo struct {
			OSImage                 string `yaml:"osImage"`
			KernelVersion           string `yaml:"kernelVersion"`
			ContainerRuntimeVersion string `yaml:"containerRuntimeVersion"`
			KubeletVersion          string `yaml:"kubeletVersion"`
		} `yaml:"nodeInfo"`
	} `yaml:"status"`
}

// kubeIngressController is DKP's IngressNginxController; its controller
// version is what the ingressNginx gate reads.
type kubeIngressController struct {
	Spec struct {
		ControllerVersion string `yaml:"controllerVersion"`
	} `yaml:"spec"`
}

// kubeClusterConfiguration is DKP's ClusterConfiguration, as the
// d8-cluster-configuration Secret holds it.
type kubeClusterConfiguration struct {
	KubernetesVersion string `yaml:"kubernetesVersion"`
}

// kubePullOverride is a ModulePullOverride: a module runs an image tag of
// its source instead of a release.
type kubePullOverride struct {
	Spec struct {
		ImageTag string `yaml:"imageTag"`
	} `yaml:"spec"`
}

// liveObjects gathers what a dump's live-cluster objects say.
type liveObjects struct {
	// osMin is the oldest OS version per OS family, as DKP names the
	// family in its gate keys (Ubuntu, Debian, …).
	osMin map[string]string
	// kernelMin is the oldest kernel; kubeletMin the oldest kubelet.
	kernelMin, kubeletMin model.Version
	nodes                 int
	// notContainerd and containerdV1 count the nodes that run another
	// runtime, and containerd 1.x.
	notContainerd, containerdV1 int
	// ingressMin is the lowest controller version; ingressUnset counts
	// the controllers that name none (they run the module's default).
	ingressMin   model.Version
	ingress      int
	ingressUnset int
	// automatic is set when the ClusterConfiguration says Automatic.
	automatic bool
	// overrides are the modules that run an image tag, with the tag.
	overrides map[string]string
}

// leadingVersion is the first version-like run of digits and dots.
var leadingVersion = regexp.MustCompile(`\d+(\.\d+){0,2}`)

// lenientVersion reads the version a node or controller reports, which
// may lack a patch ("1.9", "11") or carry a build ("5.15.0-91-generic",
// "v1.31.4"); nil when it holds none.
func lenientVersion(text string) model.Version {
	found := leadingVersion.FindString(text)
	if found == "" {
		return nil
	}
	for strings.Count(found, ".") < 2 {
		found += ".0"
	}
	v, err := model.ParseVersion(found)
	if err != nil {
		return nil
	}
	return v
}

// lower is the lower of a and b, a nil one not counting.
func lower(a, b model.Version) model.Version {
	if a == nil || (b != nil && b.Compare(a) < 0) {
		return b
	}
	return a
}

func (r *dumpReader) node(node *yaml.Node, meta kubeMeta) error {
	var n kubeNode
	if err := decode(r.file, node, &n); err != nil {
		return err
	}
	info := n.Status.NodeInfo
	l := &r.live
	l.nodes++
	if family, rest, ok := strings.Cut(strings.TrimSpace(info.OSImage), " "); ok {
		// "Ubuntu 22.04.3 LTS", "Debian GNU/Linux 11 (bullseye)"
		family = strings.ToUpper(family[:1]) + strings.ToLower(family[1:])
		if v := leadingVersion.FindString(rest); v != "" {
			if l.osMin == nil {
				l.osMin = map[string]string{}
			}
			if old, seen := l.osMin[family]; !seen || lenientVersion(v).Compare(lenientVersion(old)) < 0 {
				l.osMin[family] = v
			}
		}
	}
	if v := lenientVersion(info.KernelVersion); v != nil {
		l.kernelMin = lower(l.kernelMin, v)
	}
	if v := lenientVersion(info.KubeletVersion); v != nil {
		l.kubeletMin = lower(l.kubeletMin, v)
	}
	runtime, version, _ := strings.Cut(info.ContainerRuntimeVersion, "://")
	switch {
	case runtime != "containerd":
		l.notContainerd++
	case strings.HasPrefix(version, "1."):
		l.containerdV1++
	}
	return nil
}

func (r *dumpReader) ingressController(node *yaml.Node, meta kubeMeta) error {
	var ic kubeIngressController
	if err := decode(r.file, node, &ic); err != nil {
		return err
	}
	r.live.ingress++
	v := lenientVersion(ic.Spec.ControllerVersion)
	if v == nil {
		r.live.ingressUnset++
		return nil
	}
	r.live.ingressMin = lower(r.live.ingressMin, v)
	return nil
}

func (r *dumpReader) clusterConfiguration(node *yaml.Node, meta kubeMeta) error {
	var cc kubeClusterConfiguration
	if err := decode(r.file, node, &cc); err != nil {
		return err
	}
	r.live.automatic = strings.EqualFold(strings.TrimSpace(cc.KubernetesVersion), "Automatic")
	return nil
}

func (r *dumpReader) pullOverride(node *yaml.Node, meta kubeMeta) error {
	var po kubePullOverride
	if err := decode(r.file, node, &po); err != nil {
		return err
	}
	if r.live.overrides == nil {
		r.live.overrides = map[string]string{}
	}
	r.live.overrides[meta.Name] = po.Spec.ImageTag
	return nil
}

// finish writes what the live objects say into c: its facts, its
// Kubernetes version (the oldest kubelet) and Automatic, and a warning
// for each module that runs an image tag.
func (l *liveObjects) finish(d *KubectlDump, c *model.ClusterState) {
	facts := map[string]string{}
	for family, v := range l.osMin {
		facts["nodesMinimalOSVersion"+family] = v
	}
	if l.kernelMin != nil {
		facts["nodesMinimalLinuxKernelVersion"] = l.kernelMin.String()
	}
	if l.nodes > 0 {
		facts["containerdOnAllNodes"] = fmt.Sprint(l.notContainerd == 0)
		facts["containerdV1NodesPresent"] = fmt.Sprint(l.containerdV1 > 0)
		c.Kubernetes = l.kubeletMin
	}
	switch {
	case l.ingress > 0 && l.ingressUnset == 0:
		facts[model.GateFor("ingressNginx").Fact] = minorText(l.ingressMin)
	case l.ingressUnset > 0:
		d.warn("%d of %d IngressNginxControllers name no controllerVersion (they run the module's default), so the lowest controller version is not known", l.ingressUnset, l.ingress)
	}
	if len(facts) > 0 {
		c.Facts = facts
	}
	c.KubernetesAutomatic = l.automatic
	for _, name := range slices.Sorted(maps.Keys(l.overrides)) {
		d.warn("module %s runs image tag %q of a ModulePullOverride, not a release; it is read at the release the dump says it runs", name, l.overrides[name])
	}
}

// minorText writes v as major.minor, as DKP writes controller versions.
func minorText(v model.Version) string { return model.MinorOf(v).String() }
