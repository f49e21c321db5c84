package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// WithLoops returns a copy of in whose catalog holds n dependency loops,
// refused or allowed as rule says (R27), for measuring what loop refusal
// costs: the same loops under both rules compare the answer with loops
// refused against the answer that ignores them. Each loop
// closes on a requirement the generator drew: an enabled module i
// requires module d, and every release of d newer than the deployed one
// (the middle of its history) now requires i back, optionally
// ("!optional"), as a module that integrates with another once both run
// does. The deployed releases close no loop, so the cluster stays
// consistent; an update of d meets the loop and is held back by it. The
// same n gives the same loops.
func (in *Instance) WithLoops(n int, rule model.LoopRule) (*Instance, error) {
	if n <= 0 {
		return in, nil
	}
	rng := rand.New(rand.NewPCG(in.Seed, 0x6c6f6f70))
	back := map[int][]int{} // module d → the modules its newest releases now require
	for tries := 0; len(back) < n && tries < 100*n; tries++ {
		i := rng.IntN(len(in.names))
		if len(in.deps[i]) == 0 || in.Catalog.Module(in.names[i]).Embedded || !in.Cluster.Modules[in.names[i]].On() {
			continue
		}
		d := in.deps[i][rng.IntN(len(in.deps[i]))].on
		if in.Catalog.Module(in.names[d]).Embedded || len(back[d]) > 0 {
			continue
		}
		back[d] = append(back[d], i)
	}
	if len(back) < n {
		return nil, fmt.Errorf("%w: the %s catalog has room for %d loops, not %d", model.ErrInvalidInput, in.Size.Name, len(back), n)
	}
	optional := model.MustParseConstraint(">= 0.0.0 !optional")
	modules := make([]*model.Module, 0, len(in.names))
	for idx, m := range in.Catalog.Modules() {
		mc := *m
		mc.DependencyLoops = rule
		if len(back[idx]) == 0 {
			modules = append(modules, &mc)
			continue
		}
		mc.Releases = slices.Clone(m.Releases)
		for r := len(mc.Releases)*55/100 + 1; r < len(mc.Releases); r++ {
			rel := *mc.Releases[r]
			rel.Requirements.Modules = slices.Clone(rel.Requirements.Modules)
			for _, i := range back[idx] {
				rel.Requirements.Modules = append(rel.Requirements.Modules, model.Dependency{Module: in.names[i], Constraint: optional})
			}
			slices.SortFunc(rel.Requirements.Modules, func(a, b model.Dependency) int { return strings.Compare(a.Module, b.Module) })
			mc.Releases[r] = &rel
		}
		modules = append(modules, &mc)
	}
	cat, err := model.NewCatalog(modules)
	if err != nil {
		return nil, err
	}
	out := *in
	out.Catalog = cat
	out.Size.Name = fmt.Sprintf("%s+%d loops", in.Size.Name, n)
	if rule == model.LoopsAllow {
		out.Size.Name += " allowed"
	}
	return &out, nil
}
