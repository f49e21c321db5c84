package solver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// wording is the render phase's reading of a problem: the words of its
// facts (the fact-kind table's messages, factWords), their origins and
// the module results' held-back and refusal texts. It holds the problem
// it words (a pointer back).
type wording struct {
	p    *problem
	mode readMode // how it reads p (inHalves)
}

// message renders a fact as a sentence a DKP operator reads, in DKP's own
// wording where DKP has one (R16).
func (w wording) message(f *fact) string {
	if f == nil {
		return ""
	}
	return wordsOf(f).message(w, f)
}

// The messages of each kind of fact (factWords) follow.

func requestEnableMessage(_ wording, f *fact) string {
	if len(f.v.m.Releases) == 0 {
		if text := refusedText(f.v.name, f.v.m.Refusals()); text != "" {
			return fmt.Sprintf("the request enables %s, which has no release to take (%s)", f.v.name, text)
		}
	}
	return fmt.Sprintf("the request enables %s", f.v.name)
}

func requestDisableMessage(_ wording, f *fact) string {
	return fmt.Sprintf("the request disables %s", f.v.name)
}

func pinMessage(_ wording, f *fact) string {
	v := f.v
	if r := v.m.RefusedAt(v.pinVersion); v.pinned < 0 && r != nil {
		return fmt.Sprintf("the request pins %s to %s, which is refused: %s", v.name, v.pinVersion, r.Reason)
	}
	if v.pinned < 0 {
		return fmt.Sprintf("the request pins %s to %s, which source %s does not list", v.name, v.pinVersion, v.src.to)
	}
	return fmt.Sprintf("the request pins %s to %s", v.name, v.pinVersion)
}

func (w wording) clusterEnabledMessage(f *fact) string {
	v := f.v
	if w.p.in.req.AllowDisable && v.confirmsDisable() {
		return fmt.Sprintf("%s is enabled in the cluster (enabled: true), and %s", v.name, confirmationText(v))
	}
	return fmt.Sprintf("%s is enabled in the cluster (enabled: true)", v.name)
}

func clusterDisabledMessage(_ wording, f *fact) string {
	return fmt.Sprintf("%s is disabled in the cluster (enabled: false)", f.v.name)
}

func keepVersionMessage(_ wording, f *fact) string {
	return fmt.Sprintf("%s is not in the request's update set, so it stays at %s", f.v.name, f.v.deployedVersion())
}

func noDowngradeMessage(_ wording, f *fact) string {
	verb := "is"
	if len(f.rels) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%s may not go below its deployed version %s (%s %s older)", f.v.name, f.v.deployedVersion(), releaseLabel(f.v, f.rels), verb)
}

func (w wording) editionMessage(f *fact) string {
	p := w.p
	if p.in.cluster.Edition == "" {
		return fmt.Sprintf("%s %s is not available by default (the cluster names no edition)", f.v.name, releaseLabel(f.v, f.rels))
	}
	return fmt.Sprintf("%s %s is not available in edition %s", f.v.name, releaseLabel(f.v, f.rels), p.in.cluster.Edition)
}

func exclusiveGroupMessage(_ wording, f *fact) string {
	return fmt.Sprintf("at most one module of exclusive group %s may be enabled: %s", f.group, strings.Join(viewNames(f.members), ", "))
}

func missingModuleMessage(_ wording, f *fact) string {
	return fmt.Sprintf("%s %s requires %s, which is not in the catalog: dependency '%s' not found", f.v.name, releaseLabel(f.v, f.rels), f.dep, f.dep)
}

func missingCapabilityMessage(_ wording, f *fact) string {
	return fmt.Sprintf("%s %s requires capability %s, which no module in the catalog provides", f.v.name, releaseLabel(f.v, f.rels), f.dep)
}

func capabilityConflictMessage(_ wording, f *fact) string {
	return fmt.Sprintf("capability %s may be provided by one enabled module only, but %s provide it", f.group, strings.Join(viewNames(f.members), " and "))
}

func prereleaseMessage(_ wording, f *fact) string {
	if f.v.m.Reading().RangesName() {
		return fmt.Sprintf("%s %s is a prerelease; a prerelease is taken only when it is deployed, pinned, named by the module's channel or by a range that carries a prerelease, or when the request says devel", f.v.name, releaseLabel(f.v, f.rels))
	}
	return fmt.Sprintf("%s %s is a prerelease; a prerelease is taken only when it is deployed, pinned or named by the module's channel, or when the request says devel", f.v.name, releaseLabel(f.v, f.rels))
}

func (w wording) notEnabledMessage(f *fact) string {
	p := w.p
	v := f.v
	msg := fmt.Sprintf("%s is not enabled: the cluster does not configure it", v.name)
	if p.in.cluster.Bundle != "" {
		msg += fmt.Sprintf(", it is not on by default in bundle %s", p.in.cluster.Bundle)
	}
	return msg + ", and the request neither enables it nor sets autoEnable"
}

func channelMessage(_ wording, f *fact) string {
	v := f.v
	if v.noChannel {
		return fmt.Sprintf("%s lists no release on channel %s or a more stable one", v.name, v.channel)
	}
	var above, outside, skipped []int
	for _, i := range f.rels {
		switch set := v.channelSet(i); {
		case v.aboveHead(i) || set == nil:
			above = append(above, i)
		case set.Skips(v.rels[i].Version):
			skipped = append(skipped, i)
		default:
			outside = append(outside, i)
		}
	}
	var parts []string
	if len(above) > 0 || len(f.rels) == 0 {
		parts = append(parts, fmt.Sprintf("newer releases are not taken (%s)", releaseLabel(v, above)))
	}
	if len(outside) > 0 {
		parts = append(parts, fmt.Sprintf("the channel's entries do not include %s", releaseLabel(v, outside)))
	}
	if len(skipped) > 0 {
		parts = append(parts, fmt.Sprintf("another entry of the channel skips %s", releaseLabel(v, skipped)))
	}
	return fmt.Sprintf("%s follows channel %s, whose head is %s; %s", v.name, v.channel, v.headVersion, strings.Join(parts, "; "))
}

// stepMessage is written by concatenation rather than fmt: an update of
// every module renders one per module held back, and fmt's formatting of
// versions showed in its profile.
func (w wording) stepMessage(f *fact) string {
	v, rels := f.v, releaseLabel(f.v, f.rels)
	st := v.steps()
	next := releasesText(v, st.targets)
	from := fmtVersion(v.deployedVersion())
	if st.st.graph {
		if next == "" {
			return v.name + " updates along its update graph (replaces, skips, skipRange), and no edge leads from " + from +
				" to a newer release; " + rels + " cannot be reached without strategy: direct"
		}
		return v.name + " updates along its update graph (replaces, skips, skipRange): from " + from + " it can reach " + next +
			", by the path " + pathText(v, st.path) + "; no edge leads to " + rels
	}
	if next == "" {
		return v.name + " updates one step at a time from " + from +
			" (sequential update rule), and no release is one step away; " + rels + " must wait for a from-to rule or strategy: direct"
	}
	return v.name + " updates one step at a time from " + from + " (sequential update rule): the next step is " + next +
		", and " + pathPhrase(v, st.path) + "; " + rels + " must wait"
}

// fmtVersion is v as fmt's %s writes it: "<nil>" for none.
func fmtVersion(v model.Version) string {
	if v == nil {
		return "<nil>"
	}
	return model.VersionString(v)
}

func pathText(v *view, rels []int) string {
	vs := make([]string, len(rels))
	for i, r := range rels {
		vs[i] = v.versionText(r)
	}
	return strings.Join(vs, " → ")
}

func preferenceMessage(_ wording, f *fact) string {
	if f.choice != nil {
		return f.choice.message()
	}
	if f.at < 0 {
		return fmt.Sprintf("%s stays off, which the resolver's preferences (R14) rank higher", f.v.name)
	}
	return fmt.Sprintf("%s is at %s, which the resolver's preferences (R14) rank higher", f.v.name, f.v.rels[f.at].Version)
}

// requirementMessage renders R2 and R3 facts: the requirement, and what
// is wrong with it in the state the cluster is in now, said once; DKP's
// own wording of the check is the fact's ecosystem message (D399).
func (w wording) requirementMessage(f *fact) string {
	head := fmt.Sprintf("%s %s requires %s %s", f.v.name, releaseLabel(f.v, f.rels), f.dep, f.cons.Text)
	short, dkp := w.dependencyDetail(f.v, f.dep, f.cons)
	switch {
	case short == "":
		return head
	case dkp != "":
		return head + " (" + short + ")"
	}
	return head + ": " + short
}

// requirementEcosystem is DKP's wording of an R2 or R3 fact's check, or
// "" where modsolver's own words are all there is (no release at all).
func (w wording) requirementEcosystem(f *fact) string {
	_, dkp := w.dependencyDetail(f.v, f.dep, f.cons)
	return dkp
}

// dependencyDetail says what is wrong with dependency dep of module v
// now, in modsolver's words and in DKP's ("" where DKP has none), or
// nothing.
func (w wording) dependencyDetail(v *view, dep string, c *model.Constraint) (short, dkp string) {
	d := w.p.viewOf(dep, w.mode)
	short, dkp = w.dependencyDetailIn(v, d, dep, c)
	if d.src.named && !d.src.free && short != "" {
		from := fmt.Sprintf(" (%s comes from source %s)", dep, d.src.to)
		short += from
		if dkp != "" {
			dkp += from
		}
	}
	return short, dkp
}

// dependencyDetailIn is dependencyDetail for the view d of dep. Where
// DKP's reading strips a prerelease, the message says what the version
// was compared as, so that it never contradicts itself (R6).
func (w wording) dependencyDetailIn(v, d *view, dep string, c *model.Constraint) (short, dkp string) {
	p := w.p
	if d.m.Embedded {
		if ver := p.in.deckhouse; !model.ReadingDKP.Admits(c, ver, p.in.req.Devel) {
			as := comparedAs(model.ReadingDKP, ver)
			return fmt.Sprintf("%s is built in, at the DKP version %s%s", dep, ver, as),
				fmt.Sprintf("dependency '%s' not meet version constraint: the '%s' version%s does not satisfy the '%s' constraint (%s is built in: its version is the DKP version)", dep, ver, as, c.Range(), dep)
		}
	}
	if d.before && !d.m.Embedded {
		if ver := d.deployedVersion(); !p.admits(v, c, d, ver) {
			as := comparedAs(v.m.Reading(), ver)
			return fmt.Sprintf("%s runs %s%s", dep, ver, as),
				fmt.Sprintf("dependency '%s' not meet version constraint: the '%s' version%s does not satisfy the '%s' constraint", dep, ver, as, c.Range())
		}
	}
	if !d.before && !c.Optional && d.intent == intentOff {
		return dep + " is off", fmt.Sprintf("dependency '%s' is disabled", dep)
	}
	if !slices.ContainsFunc(d.rels, func(r *model.Release) bool { return p.admits(v, c, d, r.Version) }) {
		return notFoundPrefix(v) + noReleaseText(v, d, dep, c) + w.refusedAdmitted(v, c, d), ""
	}
	return "", ""
}

// noReleaseText says that no release of dep meets c.
func noReleaseText(v, d *view, dep string, c *model.Constraint) string {
	newest := newestFinal(d.rels)
	if newest == nil {
		return fmt.Sprintf("no release of %s satisfies '%s' (%s has none)", dep, c.Range(), dep)
	}
	if note := comparedNote(readingFor(v, d), newest); note != "" {
		return fmt.Sprintf("no release of %s satisfies '%s' (the newest is %s, %s)", dep, c.Range(), newest, note)
	}
	return fmt.Sprintf("no release of %s satisfies '%s' (the newest is %s)", dep, c.Range(), newest)
}

// notFoundPrefix opens that sentence in the words of the requiring
// module's ecosystem where it has them (KUDO's "package not found", D180).
func notFoundPrefix(v *view) string {
	if w := v.m.Ecosystem.NotFound(); w != "" {
		return w + ": "
	}
	return ""
}

// comparedAs is " (compared as X, …)" when reading rd compares ver as
// another version X, DKP's reading stripping its prerelease (R6, D145);
// "" otherwise.
func comparedAs(rd model.VersionReading, ver model.Version) string {
	if note := comparedNote(rd, ver); note != "" {
		return " (" + note + ")"
	}
	return ""
}

// comparedNote is comparedAs without its parentheses.
func comparedNote(rd model.VersionReading, ver model.Version) string {
	if as := rd.ComparedAs(ver); ver != nil && !model.SameVersion(as, ver) {
		return fmt.Sprintf("compared as %s, as DKP compares versions without their prerelease", model.VersionString(as))
	}
	return ""
}

// platformMessage renders R4 facts in DKP's words: "requirements are not
// satisfied: current kubernetes version is not suitable: 1.29.6 is less
// than 1.30", or, for a candidate version (R12), "requirements of m are
// not satisfied: 1.74.0 deckhouse version is not suitable: …". R22 facts
// on a component the cluster runs read the same.
func (w wording) platformMessage(f *fact, pv platformVersion) string {
	runs := "the cluster runs " + fmtVersion(pv.version)
	if pv.proposed {
		runs = "asked about " + fmtVersion(pv.version)
	}
	cons := f.cons.Text
	if f.cons.Optional { // OLM's kind: it holds only where the component runs (D404)
		cons = f.cons.Range() + " where " + pv.name + " runs"
	}
	return f.v.name + " " + releaseLabel(f.v, f.rels) + " requires " + pv.name + " " + cons + " (" + runs + ")"
}

// platformEcosystem is DKP's own wording of a platform fact's check, as
// its extenders word it (D399): "requirements are not satisfied: current
// kubernetes version is not suitable: 1.29.6 is less than 1.30", or, for
// a candidate version (R12), "requirements of m are not satisfied:
// 1.74.0 deckhouse version is not suitable: …".
func (w wording) platformEcosystem(f *fact, pv platformVersion) string {
	why := w.p.why(f.cons, pv.version, w.mode)
	if pv.proposed {
		return "requirements of " + f.v.name + " are not satisfied: " + fmtVersion(pv.version) + " " + pv.name + " version is not suitable: " + why
	}
	return "requirements are not satisfied: current " + pv.name + " version is not suitable: " + why
}

// componentMessage renders R22 facts, naming the component the way R4
// names kubernetes.
func (w wording) componentMessage(f *fact) string {
	p := w.p
	if p.in.components[f.dep] == nil {
		return fmt.Sprintf("%s %s requires %s %s (the cluster does not run %s: cluster.platform.%s is not set)",
			f.v.name, releasesText(f.v, f.rels), f.dep, f.cons.Text, f.dep, f.dep)
	}
	return w.platformMessage(f, componentVersion(p, f))
}

func (w wording) componentEcosystem(f *fact) string {
	p := w.p
	if p.in.components[f.dep] == nil {
		return "requirements are not satisfied: the cluster does not run " + f.dep
	}
	return w.platformEcosystem(f, componentVersion(p, f))
}

func (w wording) deckhouseMessage(f *fact) string {
	return w.platformMessage(f, deckhouseVersion(w.p, f))
}

func (w wording) deckhouseEcosystem(f *fact) string {
	return w.platformEcosystem(f, deckhouseVersion(w.p, f))
}

func (w wording) kubernetesMessage(f *fact) string {
	return w.platformMessage(f, kubernetesVersion(w.p, f))
}

func (w wording) kubernetesEcosystem(f *fact) string {
	return w.platformEcosystem(f, kubernetesVersion(w.p, f))
}

// capabilityMessage renders R19 facts: who could provide the capability,
// and why none does now.
func (w wording) capabilityMessage(f *fact) string {
	providers := w.p.in.cat.Providers(f.dep)
	return fmt.Sprintf("%s %s requires capability %s, which an enabled module must provide (provided by %s)",
		f.v.name, releasesText(f.v, f.rels), f.dep, strings.Join(providers, ", "))
}

// toModel turns a fact into its structured form.
func (w wording) toModel(f *fact) model.Fact {
	mf := model.Fact{Kind: f.kind, Message: w.message(f), Requires: f.dep, Subject: subjectOf(f), Origin: w.originOf(f)}
	if c := kindOf(f).constraint; c != nil {
		mf.Constraint = c(f)
	}
	if e := wordsOf(f).ecosystem; e != nil {
		mf.EcosystemMessage = e(w, f)
	}
	if f.compound != nil {
		mf.Group = f.compound.Group
	}
	if f.v != nil {
		mf.Module = f.v.name
		mf.Version = releasesText(f.v, f.rels)
		mf.Versions = make([]string, len(f.rels))
		for i, r := range f.rels {
			mf.Versions[i] = f.v.versionText(r)
		}
	}
	if f.at >= 0 && f.v != nil {
		mf.Version = f.v.versionText(f.at)
	}
	return mf
}

// sentences joins the messages of facts into one line, in chain order.
func (w wording) sentences(facts []*fact) string {
	return w.inOrder(chainOrder(facts))
}

// inOrder renders facts as sentences in the order given.
func (w wording) inOrder(facts []*fact) string {
	msgs := make([]string, 0, len(facts))
	for _, f := range facts {
		msgs = append(msgs, w.message(f))
	}
	return strings.Join(msgs, "; ")
}

// platformKubernetesMessage words a platform-kubernetes fact of p's
// platform; the answer's own is worded where it is made (platformFact),
// with the minors DKP supports.
func (w wording) platformKubernetesMessage(*fact) string {
	p := w.p
	return fmt.Sprintf("DKP %s does not run Kubernetes %s", model.MinorOf(p.in.deckhouse), model.MinorOf(p.in.kubernetes))
}

// platformGateMessage words a platform-gate fact of p's platform; the
// answer's own is worded where it is made (gateFact), with the fact.
func (w wording) platformGateMessage(*fact) string {
	return fmt.Sprintf("DKP %s has a requirement the cluster's facts do not meet", model.MinorOf(w.p.in.deckhouse))
}

// refusedAdmitted completes the sentence that no release of d meets
// constraint c of v with the refused releases c would admit: the
// releases that would have met it ("; vault 1.0.0 is refused: …"); ""
// for none.
func (w wording) refusedAdmitted(v *view, c *model.Constraint, d *view) string {
	var admitted []model.RefusedRelease
	for _, r := range d.m.Refusals() {
		if w.p.admits(v, c, d, r.Version) {
			admitted = append(admitted, r)
		}
	}
	if len(admitted) == 0 {
		return ""
	}
	return "; " + refusedText(d.name, admitted)
}
