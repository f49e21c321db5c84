package model

// Ecosystem names where a module's data comes from, so that messages
// about it speak that ecosystem's words (a deprecated Helm chart is not
// one that DKP may remove). The importer that reads a module sets it; the
// zero value is DKP's, which modsolver's own catalog formats describe.
type Ecosystem string

const (
	EcosystemDKP  Ecosystem = ""
	EcosystemHelm Ecosystem = "helm"
	EcosystemOLM  Ecosystem = "olm"
	EcosystemKUDO Ecosystem = "kudo"
)

// Ecosystems lists the ecosystems, DKP's first.
var Ecosystems = []Ecosystem{EcosystemDKP, EcosystemHelm, EcosystemOLM, EcosystemKUDO}

// ecosystemWords is what messages say of one ecosystem; ecosystemTable
// holds one row per ecosystem, and a test walks every one.
type ecosystemWords struct {
	// deprecated completes "m v is Deprecated: …" (R25).
	deprecated string
	// notFound opens the sentence that says no release meets a module
	// requirement, in the ecosystem's words where it has them (KUDO's
	// "package not found", D180); "" for none.
	notFound string
}

var ecosystemTable = map[Ecosystem]ecosystemWords{
	EcosystemDKP:  {deprecated: "DKP may remove it in a future release; plan a replacement"},
	EcosystemHelm: {deprecated: "its Helm repository marks the chart deprecated (deprecated: true), so it is no longer maintained; plan a replacement"},
	EcosystemOLM:  {deprecated: "its OLM catalog deprecates it (olm.deprecations); plan a replacement"},
	EcosystemKUDO: {deprecated: "its KUDO repository marks it deprecated; plan a replacement", notFound: "package not found"},
}

func (e Ecosystem) words() ecosystemWords {
	if w, ok := ecosystemTable[e]; ok {
		return w
	}
	return ecosystemTable[EcosystemDKP]
}

// DeprecatedNote completes the warning "m v is Deprecated: …" in e's
// words (R25).
func (e Ecosystem) DeprecatedNote() string { return e.words().deprecated }

// NotFound is what e says when no release meets a module requirement
// (KUDO: "package not found"), or "" when it has no words of its own
// (D180).
func (e Ecosystem) NotFound() string { return e.words().notFound }
