package solver

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// Role is what a request's inputs say about whether a module is on (R8),
// as a solver without soft constraints can take it.
type Role int

const (
	// RoleOff: the module stays off, disabled by the request or the
	// cluster, or off by default without autoEnable.
	RoleOff Role = iota
	// RoleMust: some release must be selected: enabled by the request or
	// the cluster, or pinned.
	RoleMust
	// RoleMay: the module may be on, and modsolver prefers it on or off
	// softly (R14 levels 2 and 4): on by bundle default, enabled under
	// allowDisable, or off under autoEnable.
	RoleMay
)

// Domain is what one request lets one module be before any search: the
// releases that its static facts leave (R4, R7, R9–R11, R21, R22, R25,
// D1, pins, channels and sources) and its role (R8). It is what a peer
// solver needs to answer the same request without copying those rules.
type Domain struct {
	// Module is the module as the request sees it: with several sources
	// (R23), the own module of the source it is fixed to, or the merged
	// module when it may come from any.
	Module *model.Module
	// Releases are the module's releases in ascending order. A built-in
	// module has one, at the effective DKP version, with the module's
	// requirements (R5); a deployed version the catalog does not list is a
	// release with no requirements (D73); a module free among several
	// sources has every source's releases.
	Releases []*model.Release
	// Sources names the source of each release, "" in a single catalog.
	Sources []string
	// Allowed marks the releases no static fact forbids.
	Allowed []bool
	Role    Role
}

// Domains answers, for one request, the Domain of each module it asks
// about, computed the way Solve computes it and remembered.
type Domains struct {
	p      *problem
	byName map[string]*Domain
}

// NewDomains validates the inputs as Solve does (bad input wraps
// model.ErrInvalidInput) and returns the domains of req.
func NewDomains(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) (*Domains, error) {
	if err := validate(cat, cluster, req); err != nil {
		return nil, err
	}
	p := newProblem(compiledFor(cat), cluster, req)
	p.lazyStatics = true // a domain is the allowed filter alone
	return &Domains{p: p, byName: map[string]*Domain{}}, nil
}

// Of returns the domain of module name, or nil when the catalog has no
// such module.
func (ds *Domains) Of(name string) *Domain {
	if d, ok := ds.byName[name]; ok {
		return d
	}
	v := ds.p.view(name)
	if v == nil {
		return nil
	}
	d := &Domain{Module: v.m, Releases: v.rels, Allowed: slices.Clone(v.allowed), Role: roleOf(v.intent), Sources: make([]string, len(v.rels))}
	for i := range v.rels {
		d.Sources[i] = v.sourceOf(i)
	}
	ds.byName[name] = d
	return d
}

// MayMeet lists, sorted, the modules whose releases may satisfy the
// predicate of compound requirement c (R24), or for a conflict its
// operand: those its atoms name or that provide a capability it names,
// or every module when its atoms do not bound it.
func (ds *Domains) MayMeet(c model.CompoundRequirement) []string {
	return ds.p.mayMeet(c.Target())
}

// roleOf folds the intents modsolver weighs softly into RoleMay.
func roleOf(in intent) Role {
	switch in {
	case intentOn:
		return RoleMust
	case intentOff:
		return RoleOff
	}
	return RoleMay
}
