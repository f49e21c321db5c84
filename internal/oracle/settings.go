package oracle

import "github.com/modsolver/modsolver/model"

// settingsRefuse reports whether release i of x is one the module would
// move to and whose settings schema refuses the module's settings in the
// cluster (R34). The release a module runs is not checked; a built-in
// module is checked only when the DKP version moves, against the schema
// its list gives for the DKP version it moves to.
func (p *problem) settingsRefuse(x *mod, i int) bool {
	st := p.cluster.Modules[x.name].Settings
	if st == nil {
		return false
	}
	if !x.m.Embedded {
		return i != p.deployed(x) && x.rels[i].CheckSettings(st).Refused != nil
	}
	if p.dkp == nil || (p.cluster.Deckhouse != nil && model.SameVersion(model.Core(p.dkp), model.Core(p.cluster.Deckhouse))) {
		return false
	}
	for _, ps := range x.m.Settings {
		if ps.Deckhouse == nil || ps.Deckhouse.Allows(model.Core(p.dkp)) {
			return (&model.Release{Settings: ps.Schema}).CheckSettings(st).Refused != nil
		}
	}
	return false
}
