package solver

import (
	"slices"
	"strconv"

	"github.com/modsolver/modsolver/model"
)

// originOf says where f was read from (DESIGN.md §3): the field of the
// request or the cluster state for a fact of intent or state, the
// catalog's file and line of the newest release it concerns for a fact
// about releases, and nothing for a fact of DKP's release data or of
// modsolver's own rules.
func (w wording) originOf(f *fact) model.Origin {
	p := w.p
	if f.v == nil {
		return model.Origin{}
	}
	name := f.v.name
	switch f.kind {
	case model.FactRequestEnable:
		return model.Origin{Field: listField("request.enable", p.in.req.Enable, name)}
	case model.FactRequestDisable:
		return model.Origin{Field: listField("request.disable", p.in.req.Disable, name)}
	case model.FactRequestPin:
		return model.Origin{Field: model.Field("request", "pin", name).String()}
	case model.FactClusterEnabled, model.FactClusterDisabled:
		return w.clusterOrigin(model.Field("cluster", "modules", name, "enabled").String())
	case model.FactKeepVersion, model.FactNoDowngrade, model.FactUpdateStep:
		return w.clusterOrigin(model.Field("cluster", "modules", name, "version").String())
	case model.FactDeckhouseRequirement:
		return releaseOrigin(f, "requirements.deckhouse")
	case model.FactKubernetesRequirement:
		return releaseOrigin(f, "requirements.kubernetes")
	case model.FactModuleRequirement, model.FactMissingModule:
		return releaseOrigin(f, "requirements.modules."+f.dep, "requirements.modules.mandatory["+f.dep+"]",
			"requirements.modules.conditional["+f.dep+"]", "requirements.modules")
	case model.FactPlatformRequirement:
		return releaseOrigin(f, "requirements.platform."+f.dep, "requirements.platform")
	case model.FactCapabilityRequirement, model.FactMissingCapability:
		return releaseOrigin(f, "requirements.capabilities")
	case model.FactCompoundRequirement, model.FactCompoundConflict:
		return releaseOrigin(f, "requirements.compound", "requirements.modules.anyOf", "requirements.modules.noneOf", "requirements.modules")
	case model.FactExperimental, model.FactPrerelease:
		return releaseOrigin(f, "stage")
	case model.FactEdition:
		return releaseOrigin(f, "accessibility.editions", "licensing.editions", "accessibility")
	case model.FactSettings:
		return releaseOrigin(f)
	}
	return model.Origin{}
}

// clusterOrigin is the origin of a field of the cluster state: the
// Kubernetes object it was read from, where a dump gave it.
func (w wording) clusterOrigin(field string) model.Origin {
	if o, ok := w.p.in.cluster.Origins[field]; ok {
		return o
	}
	return model.Origin{Field: field}
}

// releaseOrigin is the origin of the newest release f concerns, at the
// first of fields its file writes; at the release itself when it writes
// none of them.
func releaseOrigin(f *fact, fields ...string) model.Origin {
	if len(f.rels) == 0 {
		return model.Origin{}
	}
	r := f.v.rels[slices.Max(f.rels)]
	o := r.Origin
	for _, field := range fields {
		if line, ok := r.Lines[field]; ok {
			o.Line, o.Field = line, field
			break
		}
	}
	return o
}

// listField is the path of name's entry in a list field of the request,
// or the field itself when the list does not hold it.
func listField(field string, list []string, name string) string {
	if i := slices.Index(list, name); i >= 0 {
		return field + "[" + strconv.Itoa(i) + "]"
	}
	return field
}
