package readiness

import (
	"hash/maphash"
	"maps"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// ownVersion is one of a scenario's own platform version texts and the
// placeholder that stands for it, the component's name in braces
// ("{kubernetes}").
type ownVersion struct{ text, placeholder string }

// ownVersions are the versions a scenario asks about, in the order of
// their components' names.
type ownVersions []ownVersion

// ownVersionsOf lists vs, the versions a request asks about by component.
func ownVersionsOf(vs map[string]model.Version) ownVersions {
	var out ownVersions
	for _, c := range slices.Sorted(maps.Keys(vs)) {
		out = append(out, ownVersion{text: model.VersionString(vs[c]), placeholder: "{" + c + "}"})
	}
	return out
}

// text is s with each own version, component by component, replaced by
// its placeholder wherever it stands as a whole version (replaceVersion),
// so that "csi-ceph requires kubernetes < 1.32 (asked about 1.32.1)"
// reads alike for every Kubernetes version asked about.
func (o ownVersions) text(s string) string {
	for _, v := range o {
		s = replaceVersion(s, v.text, v.placeholder)
	}
	return s
}

// view is an answer as a group compares it: with the scenario's own
// platform versions, whose texts read as placeholders.
type view struct {
	own    ownVersions
	answer Answer
}

// same says whether x and y answer alike (D190): both are the same bad
// input (their errors' texts are equal), or both are results equal field
// by field apart from their stats, each text of x equal to y's once each
// scenario's own version texts read as placeholders. A list or pointer
// that is nil differs from one that is empty.
func (x view) same(y view) bool {
	if x.answer.Err != nil || y.answer.Err != nil {
		return x.answer.Err != nil && y.answer.Err != nil && x.answer.Err.Error() == y.answer.Err.Error()
	}
	return pair{x.own, y.own}.result(x.answer.Result, y.answer.Result)
}

// key hashes what most often tells answers apart, read as same reads it,
// so that answers that are the same have equal keys: the error's text;
// or the status, each module's name, action and target version, and the
// explanation's summary. same decides between answers with equal keys.
func (x view) key(seed maphash.Seed) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	if x.answer.Err != nil {
		h.WriteString("error\x00")
		h.WriteString(x.answer.Err.Error())
		return h.Sum64()
	}
	res := x.answer.Result
	if res == nil {
		return h.Sum64()
	}
	h.WriteByte(byte(res.Status))
	for _, m := range res.Modules {
		h.WriteString(x.own.text(m.Name))
		h.WriteByte(byte(m.Action))
		h.WriteString(x.own.text(m.ToVersion))
		h.WriteByte(0)
	}
	if res.Explanation != nil {
		h.WriteString(x.own.text(res.Explanation.Summary))
	}
	return h.Sum64()
}

// pair compares the fields of two answers: every text of the first read
// with x, the first scenario's own versions, and every text of the
// second with y. Its methods follow model.Result's shape, one a type.
type pair struct{ x, y ownVersions }

func (p pair) text(a, b string) bool {
	if a == "" || b == "" { // most optional texts are empty, and no placeholder is
		return a == b
	}
	return p.x.text(a) == p.y.text(b)
}

func (p pair) texts(a, b []string) bool {
	return sameList(a, b, func(a, b *string) bool { return p.text(*a, *b) })
}

func (p pair) result(a, b *model.Result) bool {
	return samePtr(a, b, func(a, b *model.Result) bool {
		// Stats say how the answer was found, not what it is.
		return a.Status == b.Status &&
			sameList(a.Modules, b.Modules, p.module) &&
			sameList(a.Plan, b.Plan, p.step) &&
			samePtr(a.Explanation, b.Explanation, p.explanation) &&
			sameList(a.Warnings, b.Warnings, p.warning) &&
			sameList(a.Assumptions, b.Assumptions, p.assumption) &&
			sameList(a.Route, b.Route, p.route)
	})
}

func (p pair) module(a, b *model.ModuleResult) bool {
	return p.text(a.Name, b.Name) && a.Action == b.Action &&
		p.text(a.FromVersion, b.FromVersion) && p.text(a.ToVersion, b.ToVersion) &&
		p.text(a.ChannelHead, b.ChannelHead) && p.text(a.HeldBack, b.HeldBack) &&
		p.texts(a.Path, b.Path) && p.text(a.PathNote, b.PathNote) &&
		p.text(a.FromSource, b.FromSource) && p.text(a.ToSource, b.ToSource) && a.Moved == b.Moved
}

func (p pair) step(a, b *model.PlanStep) bool {
	return p.text(a.Module, b.Module) && a.Action == b.Action &&
		p.text(a.FromVersion, b.FromVersion) && p.text(a.ToVersion, b.ToVersion) &&
		p.text(a.ConfirmationMessage, b.ConfirmationMessage) && p.text(a.ConfirmationAnnotation, b.ConfirmationAnnotation) &&
		p.text(a.FromSource, b.FromSource) && p.text(a.ToSource, b.ToSource) && p.texts(a.CycleWith, b.CycleWith)
}

func (p pair) explanation(a, b *model.Explanation) bool {
	return p.text(a.Summary, b.Summary) && sameList(a.Facts, b.Facts, p.fact) &&
		sameList(a.Steps, b.Steps, p.derivation) && sameList(a.Suggestions, b.Suggestions, p.suggestion)
}

func (p pair) fact(a, b *model.Fact) bool {
	return a.Kind == b.Kind && p.text(a.Module, b.Module) &&
		p.text(a.Version, b.Version) && p.texts(a.Versions, b.Versions) &&
		p.text(a.Constraint, b.Constraint) && p.text(a.Message, b.Message) &&
		p.text(a.Requires, b.Requires) && p.text(a.Subject, b.Subject) &&
		p.text(a.EcosystemMessage, b.EcosystemMessage) && samePtr(a.Group, b.Group, p.group) &&
		p.origin(&a.Origin, &b.Origin)
}

func (p pair) group(a, b *model.Group) bool {
	return a.Kind == b.Kind && p.text(a.Name, b.Name) && p.text(a.Description, b.Description)
}

func (p pair) origin(a, b *model.Origin) bool {
	return p.text(a.File, b.File) && a.Line == b.Line && p.text(a.Field, b.Field) && p.text(a.Object, b.Object)
}

// derivation compares two steps of a derivation (model.Step).
func (p pair) derivation(a, b *model.Step) bool {
	return sameList(a.Facts, b.Facts, func(a, b *int) bool { return *a == *b }) && a.After == b.After &&
		p.text(a.Module, b.Module) && p.text(a.Needs, b.Needs) &&
		p.text(a.Constraint, b.Constraint) && p.text(a.Conclusion, b.Conclusion)
}

func (p pair) suggestion(a, b *model.Suggestion) bool {
	return a.Kind == b.Kind && p.text(a.Module, b.Module) && p.text(a.Version, b.Version) &&
		p.text(a.Message, b.Message) && sameList(a.Changes, b.Changes, p.suggestion)
}

func (p pair) warning(a, b *model.Warning) bool {
	return a.Kind == b.Kind && p.text(a.Module, b.Module) && p.text(a.Version, b.Version) && p.text(a.Message, b.Message)
}

func (p pair) assumption(a, b *model.Assumption) bool {
	return p.text(a.Gate, b.Gate) && p.text(a.Subject, b.Subject) && p.text(a.Needs, b.Needs) && p.text(a.Message, b.Message)
}

func (p pair) route(a, b *model.RouteStep) bool {
	return p.text(a.Deckhouse, b.Deckhouse) && p.text(a.Kubernetes, b.Kubernetes) &&
		sameList(a.Modules, b.Modules, p.step) && p.texts(a.Requirements, b.Requirements)
}

// sameList says whether a and b are both nil, or both not nil with the
// same elements in order.
func sameList[T any](a, b []T, same func(a, b *T) bool) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// samePtr says whether a and b are both nil, or both point to the same.
func samePtr[T any](a, b *T, same func(a, b *T) bool) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return same(a, b)
}

// replaceVersion replaces each occurrence of the version text old in s
// that is not part of a longer version ("1.32.1" in "1.32.10" or
// "11.32.1"); each occurrence is looked for after the one before it, and
// judged by the text from there on. It returns s itself when it replaces
// none.
func replaceVersion(s, old, repl string) string {
	switch {
	case old == "":
		return s
	case s == old:
		return repl
	}
	var b strings.Builder
	from, kept := 0, 0 // s[from:] is still to read; s[kept:from] is not yet in b
	for {
		rest := s[from:]
		k := strings.Index(rest, old)
		if k < 0 {
			break
		}
		end := k + len(old)
		if !partOfVersion(rest, k, end) {
			if kept == 0 {
				b.Grow(len(s) + len(repl))
			}
			b.WriteString(s[kept : from+k])
			b.WriteString(repl)
			kept = from + end
		}
		from += end
	}
	if kept == 0 {
		return s
	}
	b.WriteString(s[kept:])
	return b.String()
}

// partOfVersion says whether s[k:end] continues a version on either side.
func partOfVersion(s string, k, end int) bool {
	digit := func(i int) bool { return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9' }
	switch {
	case digit(k-1) || (k > 0 && s[k-1] == '.'):
		return true
	case digit(end) || (end < len(s) && (s[end] == '.' || s[end] == '-' || s[end] == '+') && (digit(end+1) || end+1 < len(s) && isLetter(s[end+1]))):
		return true
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
