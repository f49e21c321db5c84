package catalog

import "github.com/modsolver/modsolver/model"

// constraintCache parses each distinct constraint text of one load once:
// a catalog repeats a few hundred ranges over tens of thousands of
// releases, and model.ParseConstraint's regular expressions were the
// largest cost of reading a single-file catalog (D321). A parsed
// constraint is a value that nothing changes after loading, so releases
// share it. The zero cache (nil) parses every time.
type constraintCache map[string]parsedConstraint

// parsedConstraint is a cached model.ParseConstraint answer.
type parsedConstraint struct {
	c   model.Constraint
	err error
}

// parse parses text, once per cache.
func (cc constraintCache) parse(text string) (model.Constraint, error) {
	if cc == nil {
		return model.ParseConstraint(text)
	}
	p, ok := cc[text]
	if !ok {
		p.c, p.err = model.ParseConstraint(text)
		cc[text] = p
	}
	return p.c, p.err
}
