package catalog

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// fbcSchemaDeprecations is the FBC schema that deprecates a package, some
// of its channels or some of its bundles (OLM's olm.deprecations).
const fbcSchemaDeprecations = "olm.deprecations"

// olmDeprecated counts the releases an FBC's olm.deprecations makes
// Deprecated (R25).
const olmDeprecated = "releases Deprecated by olm.deprecations"

// fbcDeprecations is an olm.deprecations object: entries each reference
// the package itself, a channel or a bundle of it.
type fbcDeprecations struct {
	Package string `json:"package"`
	Entries []struct {
		Reference struct {
			Schema string `json:"schema"`
			Name   string `json:"name"`
		} `json:"reference"`
		Message string `json:"message"`
	} `json:"entries"`
	line int
}

// deprecated is what one package's olm.deprecations deprecate.
type deprecated struct {
	pkg      bool
	channels map[string]bool
	bundles  map[string]bool
}

// applyDeprecations makes releases Deprecated (R25, D55) by the
// olm.deprecations objects read: every release of a deprecated package; a
// deprecated bundle's release; and a release that every channel listing it
// deprecates, since a deprecated channel asks its subscribers to move,
// not the bundles it shares with live channels to go. A bundle no channel
// lists is not deprecated by a channel.
func (r *fbcReader) applyDeprecations() {
	byPkg := map[string]*deprecated{}
	for _, fd := range r.deprecations {
		if fd.Package == "" {
			r.l.rep.skip(r.where(fd.line), "olm.deprecations has no package")
			continue
		}
		d := byPkg[fd.Package]
		if d == nil {
			d = &deprecated{channels: map[string]bool{}, bundles: map[string]bool{}}
			byPkg[fd.Package] = d
		}
		for _, e := range fd.Entries {
			switch e.Reference.Schema {
			case fbcSchemaPackage:
				d.pkg = true
			case fbcSchemaChannel:
				d.channels[e.Reference.Name] = true
			case fbcSchemaBundle:
				d.bundles[e.Reference.Name] = true
			default:
				r.l.rep.skip(r.where(fd.line), "olm.deprecations of package %s: reference schema %q is not olm.package, olm.channel or olm.bundle", fd.Package, e.Reference.Schema)
			}
		}
	}
	for name, d := range byPkg {
		if p := r.l.pkgs[name]; p != nil {
			r.deprecate(p, d)
		}
	}
}

// deprecate marks the loaded releases of p that d deprecates.
func (r *fbcReader) deprecate(p *olmPackage, d *deprecated) {
	listedBy := map[string][]string{} // bundle name → channels listing it
	for _, ch := range p.channels {
		for _, e := range ch.entries {
			listedBy[e.Name] = append(listedBy[e.Name], ch.name)
		}
	}
	for name, lb := range p.byName {
		chans := listedBy[name]
		byChannel := len(chans) > 0 && !slices.ContainsFunc(chans, func(c string) bool { return !d.channels[c] })
		if d.pkg || d.bundles[name] || byChannel {
			lb.rel.Stage = model.StageDeprecated
			r.l.rep.add(olmDeprecated, 1)
		}
	}
}
