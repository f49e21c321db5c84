package solver

// The sets a local question works on: the domains of its nodes, as
// sets of releases.

// localDomains are the choices each module has left: releases, and off.
type localDomains struct {
	rels []relSet
	off  []bool
}

func (d *localDomains) copyFrom(o *localDomains) {
	for n := range d.rels {
		copy(d.rels[n], o.rels[n])
	}
	copy(d.off, o.off)
}

// empty reports whether module n has no choice left.
func (d *localDomains) empty(n int) bool { return !d.off[n] && !d.rels[n].any() }
