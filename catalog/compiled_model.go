package catalog

import (
	"github.com/modsolver/modsolver/model"
)

// compiledCatalog is the payload of a compiled catalog file (D311): a
// loaded catalog as plain data that encoding/gob writes, in the shape
// model.NewCatalog and model.Merge take it, so that reading it back
// builds the catalog the way a load does. Versions and constraints are
// written once each, in Versions and Constraints, and referred to by
// position plus one, so that 0 is "none" and each distinct text is parsed
// once on reading; so are settings schemas, in Settings, each distinct
// one compiled once on reading.
type compiledCatalog struct {
	// Sources are the catalog's sources (R23), each with its own modules
	// as model.Merge takes them; a single catalog is one source without a
	// name.
	Sources     []compiledSource
	Versions    []string
	Constraints []string
	Settings    []compiledSettings
	// Known is the catalog's platform data (D212); nil when it has none.
	Known *model.KnownPlatform
	// Names are the editions and bundles that data lists (D351); nil
	// when it lists none.
	Names *model.PlatformNames
	// Report is what the load that was compiled said.
	Report compiledReport
}

// compiledSource is one source and its modules, in chunks of at most
// modulesPerChunk, each a gob stream of []compiledModule of its own, so
// that reading decodes the chunks on every core at once.
type compiledSource struct {
	Name     string
	Priority int
	Chunks   [][]byte
}

// modulesPerChunk is how many modules one chunk of a compiled source
// holds: enough that a chunk's gob type information is little beside its
// modules, few enough that M has a chunk for each core to decode.
const modulesPerChunk = 250

// compiledReport is the load's report, without the totals, which reading
// counts again.
type compiledReport struct {
	Source        string
	Format        Format
	Skipped       []Skipped
	Warnings      []string
	Counts        map[string]int
	HelmSubcharts HelmSubcharts
}

// compiledModule is model.Module; the fields are described there.
type compiledModule struct {
	Name           string
	Embedded       bool
	Weight         int
	ExclusiveGroup string
	Type           model.PackageType
	Critical       bool
	Accessibility  *compiledAccess
	Channels       map[string]int32
	ChannelSets    map[string]compiledChannelSet
	DefaultChannel string
	Releases       []compiledRelease
	Requirements   compiledRequirements
	// Dependencies are the module requirements of the module and then of
	// each release, in order, in one list rather than one each, which
	// shows in the load time of large catalogs.
	Dependencies    []compiledDependency
	Stage           model.Stage
	Disable         model.Disable
	Manifest        model.Manifest
	Origin          model.Origin
	Lines           map[string]int
	UpdatePolicy    model.UpdatePolicy
	DependencyLoops model.LoopRule
	Versions        model.VersionReading
	Ecosystem       model.Ecosystem
	Source          string
	Settings        []compiledPlatformSettings
	Refused         []compiledRefused
}

// compiledRefused is model.RefusedRelease.
type compiledRefused struct {
	Version int32
	Reason  string
}

type compiledChannelSet struct {
	Entries, Skipped []int32
}

// compiledRelease is model.Release.
type compiledRelease struct {
	Version       int32
	Requirements  compiledRequirements
	UpdateRules   []model.UpdateRule
	Edges         *compiledEdges
	Provides      []string
	Accessibility *compiledAccess
	Stage         model.Stage
	Disable       model.Disable
	Source        string
	Manifest      model.Manifest
	// Settings refers to the payload's Settings.
	Settings int32
	Refused  string
	// Origin and Lines say where the release was read from, so that an
	// explanation from a compiled catalog names the source's lines.
	Origin model.Origin
	Lines  map[string]int
}

// compiledSettings is model.SettingsSchema without its compiled form,
// which reading compiles again: the schema as JSON text.
type compiledSettings struct {
	Schema      []byte
	Conversions map[int][]string
}

// compiledPlatformSettings is model.PlatformSettings: a constraint and a
// schema, each by reference.
type compiledPlatformSettings struct {
	Deckhouse int32
	Schema    int32
}

type compiledEdges struct {
	Replaces  int32
	Skips     []int32
	SkipRange int32
}

// compiledRequirements is model.Requirements.
type compiledRequirements struct {
	Deckhouse, Kubernetes int32
	// Modules is how many of the module's Dependencies are these.
	Modules      int32
	Capabilities []string
	Platform     map[string]int32
	Compound     []compiledCompound
}

type compiledDependency struct {
	Module     string
	Constraint int32
}

type compiledCompound struct {
	Predicate *compiledPredicate
	Message   string
	Group     *model.Group
}

type compiledPredicate struct {
	Op         model.PredicateOp
	Module     string
	Version    int32
	Capability string
	Operands   []*compiledPredicate
}

// compiledAccess is model.Accessibility. gob writes neither a pointer to
// false nor an empty list, and both mean something here (R7): an edition
// that is not available, and one enabled in no bundle.
type compiledAccess struct {
	Editions map[string]compiledEdition
}

type compiledEdition struct {
	// Available is 0 when unset, else availableYes or availableNo.
	Available int8
	// HasBundles tells an empty EnabledInBundles from none.
	HasBundles       bool
	EnabledInBundles []string
}

const (
	availableYes int8 = 1
	availableNo  int8 = 2
)
