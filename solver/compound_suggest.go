package solver

// compoundChanges lists the suggestions for an R24 fact: for a
// requirement, enable (or update) a module that can satisfy it; for a
// conflict, disable a module that does.
func (s *suggesting) compoundChanges(f *fact) []change {
	names := viewNames(f.members)
	if f.compound.Conflict() {
		return providerChanges(names, disableChange)
	}
	return providerChanges(names, func(name string) change {
		if v := s.p.view(name); v.before && !v.m.Embedded {
			return updateChange(name)
		}
		return enableChange(name)
	})
}
