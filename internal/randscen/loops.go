package randscen

import (
	"github.com/modsolver/modsolver/model"
)

// loopStream separates the stream that draws each catalog's loop rule
// (R27) from the others, so that the scenarios of older seeds stay as
// they were. Loops themselves come from the requirements drawn as ever:
// small pools make modules require one another in circles.
const loopStream = 0x6c6f6f7073 // "loops"

// loopRule draws a catalog's dependencyLoops: refuse (DKP's default) most
// of the time, allow (OLM's) now and then.
func (g *gen) loopRule() model.LoopRule {
	if g.lrng.Float64() < 0.3 {
		return model.LoopsAllow
	}
	return model.LoopsRefuse
}

// loopRuleOf is the rule a catalog file states for mods, all of which
// were drawn under one rule; "" for the default.
func loopRuleOf(mods []*model.Module) string {
	if len(mods) > 0 && mods[0].DependencyLoops == model.LoopsAllow {
		return string(model.LoopsAllow)
	}
	return ""
}
