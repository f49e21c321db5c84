package server

import (
	"fmt"

	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// compoundToProto converts compound requirements (R24); nil for none.
func compoundToProto(cs []model.CompoundRequirement) []*modsolverv1.CompoundRequirement {
	if len(cs) == 0 {
		return nil
	}
	out := make([]*modsolverv1.CompoundRequirement, 0, len(cs))
	for _, c := range cs {
		out = append(out, &modsolverv1.CompoundRequirement{Predicate: predicateToProto(c.Predicate), Message: c.Message, Conflict: c.Conflict(), Group: groupToProto(c.Group)})
	}
	return out
}

// predicateToProto converts one predicate node and its operands.
func predicateToProto(p *model.Predicate) *modsolverv1.Predicate {
	switch p.Op {
	case model.PredicateModule:
		atom := &modsolverv1.ModuleAtom{Module: p.Module}
		if p.Version != nil {
			atom.Version = p.Version.Text
		}
		return &modsolverv1.Predicate{Node: &modsolverv1.Predicate_Module{Module: atom}}
	case model.PredicateCapability:
		return &modsolverv1.Predicate{Node: &modsolverv1.Predicate_Capability{Capability: p.Capability}}
	case model.PredicateAll:
		return &modsolverv1.Predicate{Node: &modsolverv1.Predicate_All{All: operandsToProto(p.Operands)}}
	case model.PredicateAny:
		return &modsolverv1.Predicate{Node: &modsolverv1.Predicate_Any{Any: operandsToProto(p.Operands)}}
	case model.PredicateNot:
		return &modsolverv1.Predicate{Node: &modsolverv1.Predicate_Not{Not: predicateToProto(p.Operands[0])}}
	}
	panic(fmt.Sprintf("internal error: predicate kind %v", p.Op))
}

func operandsToProto(ps []*model.Predicate) *modsolverv1.PredicateList {
	out := &modsolverv1.PredicateList{Operands: make([]*modsolverv1.Predicate, 0, len(ps))}
	for _, p := range ps {
		out.Operands = append(out.Operands, predicateToProto(p))
	}
	return out
}
