package solver

import (
	"fmt"
	"maps"

	"github.com/modsolver/modsolver/model"
)

// Several sources (R23), as suggestions offer them: moving a module to
// another source that lists a release the request can take.

// sourceMoves lists, for each module of a core that is fixed to one of
// several sources, the moves to its other sources, in source order (R23):
// each a group, so that the first that works is named.
func (s *suggesting) sourceMoves(core []*fact) [][]change {
	var groups [][]change
	seen := map[*view]bool{}
	for _, f := range chainOrder(core) {
		for _, v := range []*view{f.v, s.depView(f)} {
			if v != nil && !seen[v] && v.src.named && !v.src.free {
				seen[v] = true
				groups = s.appendMoves(groups, v)
			}
		}
	}
	return groups
}

// depView is the view of the module a requirement fact requires, or nil.
func (s *suggesting) depView(f *fact) *view {
	if f.kind != model.FactModuleRequirement {
		return nil
	}
	return s.p.view(f.dep)
}

// appendMoves adds the group of v's moves to its other sources.
func (s *suggesting) appendMoves(groups [][]change, v *view) [][]change {
	var alts []change
	for _, src := range s.p.in.cat.Module(v.name).ModuleSources() {
		if src != v.src.to {
			alts = append(alts, moveChange(v.name, src))
		}
	}
	if len(alts) > 0 {
		groups = append(groups, alts)
	}
	return groups
}

func moveChange(name, src string) change {
	return change{
		sug: model.Suggestion{Kind: model.SuggestMoveSource, Module: name, Message: fmt.Sprintf("move %s to source %s (set request.sources.%s)", name, src, name)},
		apply: func(_ *model.ClusterState, r *model.Request) {
			r.Sources = maps.Clone(r.Sources)
			if r.Sources == nil {
				r.Sources = map[string]string{}
			}
			r.Sources[name] = src
		},
	}
}
