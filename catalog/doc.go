// Package catalog reads modsolver's inputs into model types: catalogs
// (modsolver's single-file YAML or JSON format, a directory in DKP's
// module-source layout, an OLM, Helm or KUDO catalog, or a catalog
// compiled by modsolver), cluster states,
// requests and scenario files.
//
// A tour of the files:
//
//   - load.go: Load, LoadFormat and Parse, the entry points for catalogs,
//     and Detect, which tells a catalog file's format from its content;
//     sniff.go finds the keys Detect looks for without parsing (D320).
//   - strict.go: strict YAML decoding; an unknown key is a *ParseError
//     with file and line, and so is a syntax error, at the line the
//     problem is on (D382). kinds.go says a value of the wrong kind (a
//     list where a mapping belongs) in the format's words (D381).
//     decode.go's walker decodes a node in one pass, as yaml would (D200,
//     D322); split.go parses a large file in parts on several cores
//     (D324).
//   - constraints.go: the constraint cache one load shares (D321).
//   - file.go: the single-file catalog format and its conversion to model.
//   - dkp.go: the DKP module-source directory, read with DKP's tolerance;
//     dkp_settings.go reads a folder's openapi/ settings schema and
//     conversions (R34), compiling each distinct one once a load;
//     dkp_editions.go reads the editions and bundles platform.yaml lists
//     (D351). A module in both embedded/ and external/ is one module of
//     two sources (D350).
//   - releases.go: DKP's release data (R31), as the tree's releases.yaml
//     and the single-file format's platformReleases write it;
//     dkp_platform.go reads the tree's platform.yaml and releases.yaml.
//   - settings.go: the single-file format's settings schemas (R34),
//     compiled as they are read (the settings package).
//   - olm.go: the mapping of OLM bundles onto modules and releases (D34);
//     olm_dump.go reads a bundle-metadata dump, olm_fbc.go a file-based
//     catalog.
//   - helm.go: a Helm repository index.yaml, read with tolerance (D35, D36).
//   - kudo.go: the mapping of KUDO operator packages onto modules and
//     releases (D86–D90); kudo_version.go forms a release version from
//     appVersion and operatorVersion, kudo_deps.go turns KudoOperator
//     tasks into requirements, kudo_dir.go reads a directory of packages,
//     kudo_index.go a KUDO repository index.
//   - compiled.go: compiled catalog files (D310–D319), which `modsolver
//     catalog compile` writes and Load reads back: a header with a magic,
//     a format version, a SHA-256 and the build that wrote them, then the
//     loaded catalog as a gob payload; compiled_model.go is the payload's
//     shape, compiled_encode.go and compiled_decode.go convert it from and
//     to model types.
//   - stats.go: the stats `modsolver catalog stats` prints.
//   - report.go: what a load read, skipped and warned about.
//   - state.go: cluster state and request files; whatif.go what-if
//     batches, each scenario read on its own (D368). origin.go places bad
//     input that a cluster state or request meets later, at the catalog,
//     in its file and line (D383).
//   - kubectl.go: a cluster state given as DKP describes it to kubectl (a
//     List or several documents of ModuleConfigs, ModuleReleases, …),
//     read with DKP's tolerance (D151); kubectl_kinds.go reads each kind
//     of resource, and kubectl_state.go turns a dump into the cluster
//     state of a resolution, with the facts a dump cannot say given by the
//     caller (D150–D155).
//   - scenario.go: scenario files, the acceptance tests of DESIGN.md §7.
//   - demo.go: the embedded demo catalog, cluster and request.
//
// Versions are always read as the literal text of a YAML scalar, so that
// "1.30" stays 1.30 and never becomes the float 1.3.
package catalog
