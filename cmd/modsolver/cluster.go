package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
)

// clusterUsage says how --cluster is read, for the commands that take it.
const clusterUsage = `--cluster takes modsolver's cluster-state file, or the cluster as DKP
describes it to kubectl:
  kubectl get moduleconfigs,modules,modulereleases,modulesources,\
    moduleupdatepolicies,deckhousereleases -o yaml > dump.yaml
A dump does not hold the Kubernetes version or the edition: give them
with --kubernetes and --edition (and --bundle, --deckhouse when the dump
lacks the deckhouse ModuleConfig or a Deployed DeckhouseRelease).
--cluster - reads either form from standard input, so that kubectl's
output can be piped in.
`

// factFlags are the facts of a cluster state given beside --cluster: what
// a kubectl dump of DKP's resources cannot say, or what the user wants to
// say instead of the file (D152, D154).
type factFlags struct {
	edition, bundle string
	// kubernetes and deckhouse are resolve's; whatif's candidate lists
	// stand in for them (D154).
	kubernetes, deckhouse string
}

// factNames are the flags that give each fact.
var factNames = catalog.FactNames{
	catalog.FactDeckhouse:  model.Field("--deckhouse"),
	catalog.FactKubernetes: model.Field("--kubernetes"),
	catalog.FactEdition:    model.Field("--edition"),
	catalog.FactBundle:     model.Field("--bundle"),
}

// What --edition and --bundle are, for every command that takes them.
const (
	editionUsage = "the cluster's DKP `edition` (ce, ee, …; one the catalog's platform data lists, in any case)"
	bundleUsage  = "the cluster's `bundle` (Default, Minimal, Managed; in any case)"
)

// register adds --edition and --bundle, and with versions --kubernetes and
// --deckhouse.
func (f *factFlags) register(fs *flag.FlagSet, versions bool) {
	fs.StringVar(&f.edition, "edition", "", editionUsage+", over what --cluster says; a kubectl dump needs it")
	fs.StringVar(&f.bundle, "bundle", "", bundleUsage+", over what --cluster says")
	if versions {
		fs.StringVar(&f.kubernetes, "kubernetes", "", "the cluster's Kubernetes `version`, over what --cluster says; a kubectl dump needs it")
		fs.StringVar(&f.deckhouse, "deckhouse", "", "the cluster's DKP `version`, over what --cluster says (a dump's Deployed DeckhouseRelease)")
	}
}

// registerCheck adds the four flags for catalog check, which has no
// cluster state of its own: they describe the empty cluster it installs
// each module into, and are read as resolve reads them (given).
func (f *factFlags) registerCheck(fs *flag.FlagSet) {
	fs.StringVar(&f.kubernetes, "kubernetes", "", "the cluster's Kubernetes `version` (required)")
	fs.StringVar(&f.deckhouse, "deckhouse", "", "the cluster's DKP `version`; required when the catalog has DKP requirements or built-in modules")
	fs.StringVar(&f.edition, "edition", "", editionUsage+"; without it the cluster names no edition")
	fs.StringVar(&f.bundle, "bundle", "", bundleUsage)
}

// given is the cluster state the flags describe.
func (f *factFlags) given() (*model.ClusterState, error) {
	c := &model.ClusterState{Edition: f.edition, Bundle: f.bundle}
	var err error
	if c.Kubernetes, err = flagVersion("--kubernetes", f.kubernetes); err != nil {
		return nil, err
	}
	if c.Deckhouse, err = flagVersion("--deckhouse", f.deckhouse); err != nil {
		return nil, err
	}
	return c, nil
}

// flagVersion reads a version the cluster runs, given on the command
// line: a release, patch included (D412); "" is nil.

// fields are the cluster state's fields the flags give, which are then
// not the cluster file's: cluster.edition, say, for --edition.
func (f *factFlags) fields() []string {
	var out []string
	for _, g := range []struct{ field, value string }{
		{"edition", f.edition}, {"bundle", f.bundle}, {"kubernetes", f.kubernetes}, {"deckhouse", f.deckhouse},
	} {
		if g.value != "" {
			out = append(out, g.field)
		}
	}
	return out
}
func flagVersion(name, text string) (model.Version, error) {
	if text == "" {
		return nil, nil
	}
	v, err := model.ParseRunningVersion(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// loadCluster reads the cluster state at path, in either form, for a
// resolution against cat. given holds the facts the flags give; fill,
// when not nil, gives the versions a kubectl dump lacks (whatif's
// candidates, D154). What the dump skipped and warned about goes to errOut.
func loadCluster(path string, cat *model.Catalog, given *model.ClusterState, fill func(dump *model.ClusterState, given *model.ClusterState), errOut io.Writer) (*model.ClusterState, error) {
	state, dump, err := readCluster(path)
	if err != nil {
		return nil, err
	}
	if dump == nil {
		catalog.ApplyFacts(state, given)
		return state, nil
	}
	if fill != nil {
		fill(dump.Cluster, given)
	}
	state, err = dump.State(cat, given, factNames)
	if s := dump.Summary(); s != "" { // State adds what the catalog tells of the dump
		fmt.Fprintln(errOut, s)
	}
	return state, err
}

// stdinName names standard input as a cluster state's file: --cluster -
// reads it, so that a dump can be piped in (kubectl get … -o yaml |
// modsolver whatif --cluster -).
const stdinName = "standard input"

// readCluster reads the cluster state at path, or from standard input
// when path is "-".
func readCluster(path string) (*model.ClusterState, *catalog.KubectlDump, error) {
	if path != "-" {
		return catalog.LoadClusterOrDump(path)
	}
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: cluster state: %s: %w", model.ErrInvalidInput, stdinName, err)
	}
	return catalog.ParseClusterOrDump(stdinName, data)
}

// lowestCandidates is whatif's fill (D154): a dump's missing Kubernetes or
// DKP version is the lowest candidate its list names, which note says.
func lowestCandidates(kubernetes, deckhouse []model.Version, note func(string)) func(dump, given *model.ClusterState) {
	lowest := func(vs []model.Version) model.Version {
		if len(vs) == 0 {
			return nil
		}
		return slices.MinFunc(vs, model.CompareVersions)
	}
	return func(dump, given *model.ClusterState) {
		if dump.Kubernetes == nil && given.Kubernetes == nil {
			if given.Kubernetes = lowest(kubernetes); given.Kubernetes != nil {
				note(fmt.Sprintf("the dump does not say which Kubernetes the cluster runs (it has no Nodes): the lowest candidate, %s, is taken as the version it runs", given.Kubernetes))
			}
		}
		if dump.Deckhouse == nil && given.Deckhouse == nil {
			if given.Deckhouse = lowest(deckhouse); given.Deckhouse != nil {
				note(fmt.Sprintf("the dump does not say which DKP the cluster runs (it has no Deployed DeckhouseRelease): the lowest candidate, %s, is taken as the version it runs", given.Deckhouse))
			}
		}
	}
}

// requestFactNames are the request fields that give each fact over gRPC.
var requestFactNames = catalog.FactNames{
	catalog.FactDeckhouse:  model.Field("cluster", "deckhouse"),
	catalog.FactKubernetes: model.Field("cluster", "kubernetes"),
	catalog.FactEdition:    model.Field("cluster", "edition"),
	catalog.FactBundle:     model.Field("cluster", "bundle"),
}

// parseKubectlCluster is the server's reader of kubectl dumps (D150).
var parseKubectlCluster = catalog.KubectlParser(requestFactNames)
