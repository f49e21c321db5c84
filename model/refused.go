package model

import "slices"

// RefusedRelease is a release its ecosystem never registers (R27: a v2
// package that requires its own module, a KUDO package that installs
// itself), kept beside a module's releases so that an answer can say why
// it does not take it.
type RefusedRelease struct {
	Version Version
	// Reason is the ecosystem's own words, such as `dependency cycle
	// through: vault`.
	Reason string
}

// setAsideRefused moves every release marked Refused out of m.Releases
// into m.Refused (D347): no answer selects one, and no check reads its
// requirements, which close the loop that refuses it. Releases must be
// sorted; a refused release of the same version as another release is
// listed twice.
func (m *Module) setAsideRefused(field Path) InputErrors {
	if !slices.ContainsFunc(m.Releases, func(r *Release) bool { return r.Refused != "" }) {
		return nil
	}
	var errs InputErrors
	var kept []*Release
	for i, r := range m.Releases {
		if i > 0 && SameVersion(m.Releases[i-1].Version, r.Version) && (r.Refused != "" || m.Releases[i-1].Refused != "") {
			errs = append(errs, fieldErr(field.Field("releases"), ErrDuplicate, "release %s is listed twice", r.Version))
		}
		if r.Refused == "" {
			kept = append(kept, r)
			continue
		}
		m.Refused = append(m.Refused, RefusedRelease{Version: r.Version, Reason: r.Refused})
	}
	m.Releases = kept
	slices.SortFunc(m.Refused, func(a, b RefusedRelease) int { return CompareVersions(a.Version, b.Version) })
	m.repointChannels()
	return errs
}

// repointChannels moves a channel that points at a refused release to
// the newest release below it: the same bound on the releases the module
// takes, at a release an answer can name as its head. A channel with no
// release below it keeps the refused version, and allows none.
func (m *Module) repointChannels() {
	for ch, v := range m.Channels {
		if m.Release(v) != nil || m.RefusedAt(v) == nil {
			continue
		}
		i, _ := slices.BinarySearchFunc(m.Releases, v, func(r *Release, v Version) int { return CompareVersions(r.Version, v) })
		if i > 0 {
			m.Channels[ch] = m.Releases[i-1].Version
		}
	}
}

// Refusals lists the releases m's ecosystem refuses, by ascending
// version; for a module of several sources (R23), every source's.
func (m *Module) Refusals() []RefusedRelease {
	if !m.MultiSource() {
		return m.Refused
	}
	var out []RefusedRelease
	for _, s := range m.ModuleSources() {
		out = append(out, m.ForSource(s).Refused...)
	}
	slices.SortStableFunc(out, func(a, b RefusedRelease) int { return CompareVersions(a.Version, b.Version) })
	return out
}

// RefusedAt returns the refusal of m's release v, or nil when no source
// refuses a release of that version.
func (m *Module) RefusedAt(v Version) *RefusedRelease {
	for _, r := range m.Refusals() {
		if SameVersion(r.Version, v) {
			return &r
		}
	}
	return nil
}
