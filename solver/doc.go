// Package solver resolves modsolver's problems on the gini SAT solver: it
// encodes a catalog, a cluster state and a request as clauses, finds the
// preferred consistent answer, and explains unsatisfiable ones. It is the
// only package that imports gini; nothing gini-typed leaves it.
//
// Before any request, a catalog is compiled (D95):
//
//   - compiled.go: Compile and Compiled, whose Solve, WhatIf, Sweep and
//     Encode (solve.go, whatif.go) answer on the compiled catalog; the
//     package-level functions compile on first use and keep the tables
//     while the catalog lives.
//   - compiled_tables.go: what compiling computes, once, and every
//     request then only reads, from any goroutine: each module's channel
//     heads and newest release, the update rule's tables per head (R11,
//     R21), its releases grouped by platform requirement text (interned,
//     so that a request checks each text once), which checks a module
//     needs at all, the modules each bundle may enable by default, and the
//     platform constraints what-if classes compare versions with.
//
// A tour, in the order a resolution runs:
//
//   - solve.go: Solve and Encode, the entry points, and the pipeline one
//     session runs, read top to bottom: a platform DKP refuses, the fast
//     encoding, R14's levels, then the answer or its explanation;
//     session.go: the session that holds one resolution's fast encoding
//     and its outcomes. Its later phases' parts read it: explaining
//     (explain.go: the explain encodings and held-back questions),
//     suggesting (suggest.go: verified changes, solved on the resolver
//     the facade hands in) and answering (result_render.go: the answer
//     in words).
//   - problem.go: the view of each module this resolution touches, read
//     from the compiled tables: its intent (R8), channel head (R10),
//     deployed and pinned releases.
//   - facts.go: facts, the unit of explanation (R16); the static facts that
//     forbid releases on their own (R4, R7, R9–R11, R19 missing
//     capabilities, R22 platform components, pins, prereleases: which
//     ones the module's version reading and the request's devel let it
//     take, R6, D140), and admits, which reads a range by the reading of
//     the module that wrote it. A view
//     first computes only which releases they forbid; the facts are made
//     when an explanation reads them (D96), and read as copies by the
//     held-back reasons and path notes that only quote them (D118).
//     sink.go: which of the three a reading does is its sink, set for
//     the reading and nowhere else (D224). The rules with files of their
//     own (stages, settings, releases, sources) read theirs there, as
//     ruleFacts.
//   - steps.go: the DKP sequential update rule and update paths (R11),
//     or a module's update graph, followed over several edges (R21), as
//     the module's update policy says (D66).
//   - options.go: the options of a resolution and the check of its
//     inputs, and testHooks, the switches only tests set.
//   - refused.go: releases an ecosystem refuses (R27's loop of one,
//     D347, D348), which the importer set aside: an answer that would
//     have taken one says so, in the ecosystem's words.
//   - localcore_sets.go: the domains a local question works on
//     (localcore.go).
//   - domain.go: NewDomains, the exported reading of the above for a peer
//     solver: each module's releases after the static facts, and its role
//     (R8), as `modsolver bench --vs deppy` translates them (D110).
//   - pathnote.go: what a path meets: where it stops below the head and
//     which releases on it the platform forbids (D70).
//   - closure.go: which modules an encoding needs at all (DESIGN §6),
//     and the work done in two halves side by side (D330, D331).
//   - detach.go: kept modules that share nothing with what may change are
//     left out of the fast encoding and reported as kept (D39, D97); a
//     detacher finds them, here and in statememo.go.
//     statememo.go: for questions of a state asked before that enable or
//     disable a few modules, the frozen modules are read from a memo of
//     that state, without views (D225); statememo_solve.go makes the
//     memo from the neutral request and finds it again.
//   - guard.go, cone.go: how an encoding holds a fact's clauses (its
//     guard) and which modules it covers (its scope, the whole closure or
//     a cone grown from the request's facts, D107).
//   - encode.go, requirements.go, capabilities.go, compound.go: variables
//     and clauses. The order encoding ge(m, j) gives R1 for free; module
//     requirements (R2, R3) become a few clauses per version interval;
//     exclusive groups (R13); required capabilities and their uniqueness
//     (R19, R20); compound requirements and conflicts (R24), whose
//     predicates are evaluated per release into interval literals. The
//     encoder keeps the variables, clauses and solves (encode.go,
//     sat.go); what modules say of each other it writes as relations
//     (requirements_encode.go, capabilities.go, compound.go, loops.go).
//   - loops.go: dependency loops (R27): the circles of the catalog's
//     requirement graph a refusing module takes part in, listed when the
//     catalog is compiled (loops_compile.go), each forbidden by a fact
//     over one literal per edge; the loops an answer keeps running, as
//     warnings (D125–D127); their words in loops_render.go and their
//     suggestions in loops_suggest.go.
//   - groups.go: DKP v2 anyOf and noneOf groups (R28), which are compound
//     requirements that carry their group; only their sentences, in
//     DKP's scheduler's words (compound_render.go), and their short
//     forms in a sweep differ (D132).
//   - relset.go: a set of release indices, one bit each, which
//     compiled requirement texts and local questions share.
//   - card.go: a totalizer for the cardinality levels of R14.
//   - sat.go: solving under assumptions with cancellation by context.
//   - budget.go: the estimated memory of a resolution's encodings, which
//     Stats.MemoryBytes reports and WithMemoryLimit bounds.
//   - optimize.go: the preference levels of R14, in order, each kept as
//     assumptions for the next; levels 3 and 5 search only the modules
//     the commits leave open (D117).
//   - explain.go: selectors, gini's Why() cores, and their shrinking to a
//     minimal set of facts (R16).
//   - unsat.go, render.go, suggest.go: the explanation of an unsatisfiable
//     request, its core found in unsat.go and worded in render.go (a
//     wording of the problem: the words of every fact, origin.go its
//     origin), with every platform blocker (the hopeless
//     ones found in one pass, D106) and verified suggestions: single
//     changes first, downgrades only where nothing else works or the
//     question is one (D172, D173).
//   - combine.go, changeset.go: when no single change works, the smallest
//     sets of up to three changes, found as sets of facts on the
//     explanation's encoding and verified as wholes (D170, D171);
//     compound_suggest.go the changes that meet a compound requirement.
//   - factkinds.go: one entry per kind of fact, read by every use: its
//     rank in an explanation, its subject and constraint text, and
//     whether it is a platform requirement or background (D100); cut by
//     phase as the rules are: factkinds_render.go (its message and its
//     short form in a sweep) and factkinds_suggest.go (the changes a
//     suggestion may make).
//   - heldback.go: why a module ends below its head (R17): the facts;
//     result_render.go words them.
//     localcore.go: most of its questions read off the facts of the
//     modules near it, a small constraint problem answered exactly
//     without a solver; the rest go to a cone (D229).
//   - sources.go: several sources (R23): where each module comes from,
//     and a release off its channel (above the head, or not in the
//     channel's set of releases, D182); each step's side beside it:
//     sources_encode.go (a literal per source, requirements met across
//     sources, written as sourcing), sources_optimize.go (the source preference of levels 3a
//     and 5a, D77, D91), sources_suggest.go (moves), and
//     sources_cross.go (the capability and compound requirements that
//     the tie among sources of equal priority counts, D181). The
//     preferences' facts in held-back reasons (D92) are in
//     sources_explain.go.
//   - stages.go: module stages (R25: the Experimental fact, Deprecated
//     warnings, the Experimental-only modules of a catalog) and disable
//     confirmation (R26: the intent under allowDisable, the plan step);
//     stages_result.go their warnings and plan steps in an answer,
//     stages_suggest.go their suggestions.
//   - releases.go: DKP's release data (R31) and the gates of the live
//     cluster (R32): a platform DKP does not run or may not move to is
//     answered before any encoding (platformRefusal), the release
//     requirements on modules are static facts, and the gates no fact
//     decides are the answer's assumptions; releases_suggest.go the
//     changes that meet them.
//   - route.go: the route one minor at a time (R33), placed on a
//     resolved answer that moves a platform minor up (D386): the walks of
//     pairs DKP runs, each module's fewest changes before the steps that
//     need them, the best walk as the answer's route, or one
//     platform-route fact when none passes. It solves only to verify a
//     suggestion, on the resolver the facade hands in.
//   - settings.go: settings the target release accepts (R34): the
//     static fact of the releases whose compiled schema refuses the
//     module's settings, its wording, and the warnings of required
//     fields the settings lack; settings_suggest.go its suggestion. The schema itself is the
//     settings package's, asked through model.Release.CheckSettings.
//   - result.go, plan.go: the outcomes read back from the model, actions,
//     paths, and the ordered plan (R18), whose order plan_order.go keeps
//     (Tarjan's components in a heap); result_render.go: the resolved
//     answer composed, each outcome's module result in words, with its
//     path note and held-back reason.
//     A large answer is rendered in two passes, the second only reading,
//     in halves side by side, while the plan is ordered (D330); a large
//     closure's views are filtered so too (D331).
//   - whatif.go: batches. Workers take the classes of requests in turn
//     and resolve each class's first request as Solve does (D436).
//   - classes.go, rerender.go: what-if by equivalence class.
//     Requests whose platform versions the catalog cannot tell apart are
//     resolved once and the others rendered from that session with their
//     own versions, filling in only the texts that quote them (D120); a
//     batch checks each class of suggestion once, reading the status of
//     the classes it resolves itself (D61, D120).
//   - sweep.go: every module installed at its head, one question each, on
//     the what-if engine (`modsolver catalog check`, D37).
//
// Two encodings of one problem exist; they differ by their guard and
// their scope only. The fast one (guard hard,
// the whole closure but detached modules) applies the static facts as
// domain filters and adds the others as plain clauses; it finds the
// answer. The explain one (guard selecting) keeps every release and
// guards every fact's clauses with a selector literal; it is built only
// to explain: over the whole closure for platform questions, over a cone
// for other unsatisfiable requests (D107), and over a cone of its own for
// each held-back question that the facts near the module do not decide
// (D124, D229, heldback.go).
package solver
