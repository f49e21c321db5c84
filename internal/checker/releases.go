package checker

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// checkReleases31 checks R31 from its text on a resolved answer: DKP's
// release data, where the catalog carries it, supports the Kubernetes
// minor the answer runs with its DKP minor; every DKP release the answer
// moves through (each minor above the cluster's, up to the answer's) has
// its Kubernetes floor met, none of its disabledModules is on, none of
// its migratedModules is on built in, and on a cluster whose Kubernetes
// is Automatic every enabled module's release admits its autoK8sVersion;
// and a preview or end-of-life Kubernetes minor is warned of.
func (c *checker) checkReleases31() {
	data := c.cat.PlatformReleases()
	if data == nil || c.dkp == nil || c.kube == nil {
		return
	}
	k := model.MinorOf(c.kube)
	if rel := data.Release(c.dkp); rel != nil {
		status, ok := rel.Kubernetes[k]
		if !ok {
			c.add("R31", "", "resolved on DKP %s and Kubernetes %s, which that DKP release does not support", model.VersionString(c.dkp), model.VersionString(c.kube))
		}
		warned := slices.ContainsFunc(c.res.Warnings, func(w model.Warning) bool { return w.Kind == model.WarningKubernetesStatus })
		if status.Warns() != warned {
			c.addReported("R31", "", "Kubernetes %s is %q in DKP %s, and the answer's warnings say so: %v", k, status, model.MinorOf(c.dkp), warned)
		}
	}
	for _, m := range data.OnTheWay(c.cluster.Deckhouse, c.dkp) {
		r := data[m].Requirements
		if r.K8s != (model.MajorMinor{}) && k.Compare(r.K8s) < 0 {
			c.add("R31", "", "moves through DKP %s, which requires Kubernetes %s or newer; the answer runs %s", m, r.K8s, k)
		}
		c.checkGates(m, r.Other)
		for _, name := range c.enabledNames() {
			mod := c.module(name)
			switch {
			case slices.Contains(r.DisabledModules, name):
				c.add("R31", name, "enabled, but DKP %s, which the answer moves through, requires it disabled", m)
			case slices.Contains(r.MigratedModules, name) && mod != nil && mod.Embedded:
				c.add("R31", name, "enabled built in, but DKP %s, which the answer moves through, no longer carries it", m)
			}
			if !c.cluster.KubernetesAutomatic || r.AutoK8sVersion == (model.MajorMinor{}) || mod == nil {
				continue
			}
			if kc := requirementsOf(mod, c.selectedRelease(mod)).Kubernetes; kc != nil && !kc.Allows(r.AutoK8sVersion.Version()) {
				c.add("R31", name, "its release requires kubernetes %s, which does not admit %s, the Kubernetes DKP %s moves an Automatic cluster to", kc.Text, r.AutoK8sVersion, m)
			}
		}
	}
}

// checkGates checks R32 for the gates of one DKP release on the way: a
// gate the cluster's facts decide holds, and one they do not decide is
// among the answer's assumptions. A gate whose registering module the
// catalog has and the cluster does not run is not DKP's to check.
func (c *checker) checkGates(minor model.MajorMinor, gates map[string]string) {
	for key, required := range gates {
		g := model.GateFor(key)
		if g.Module != "" {
			if m := c.module(g.Module); m != nil {
				if _, runs := c.cluster.Deployed(m); !runs && !c.cluster.Modules[g.Module].On() {
					continue
				}
			}
		}
		fact, given := c.cluster.Facts[g.Fact]
		if given {
			if ok, _ := g.Holds(required, fact); !ok {
				c.add("R32", "", "moves through DKP %s, whose %s: %s the cluster's %s %q fails", minor, key, required, g.Fact, fact)
			}
			continue
		}
		if !slices.ContainsFunc(c.res.Assumptions, func(a model.Assumption) bool { return a.Gate == key && a.Subject == "DKP "+minor.String() }) {
			c.addReported("R32", "", "moves through DKP %s, whose %s no fact decides, and the answer does not list it as an assumption", minor, key)
		}
	}
}
