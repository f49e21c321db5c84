// Package server serves modsolver over gRPC: the modsolver.v1.Resolver
// service, with the standard health service and server reflection. It
// owns the conversion between model and proto types and the single
// error→status mapping.
//
// A tour of the files:
//
//   - server.go: New and its options (solve timeout, logger, inline
//     catalog parser, kubectl dump parser, request size), the configured *grpc.Server, and
//     graceful Shutdown that turns health NOT_SERVING first.
//   - catalogs.go: Catalogs, the named catalogs a server answers from. The
//     set is an immutable snapshot behind an atomic pointer, so a reload
//     (SIGHUP in `modsolver serve`) swaps it as a whole.
//   - handlers.go: the Resolver handlers. Each one validates, converts,
//     calls solver.Solve or solver.WhatIf, and converts back. A cluster
//     state carried as a kubectl dump is read by the ClusterParser, with
//     the state's other fields as the facts it lacks (D150). WhatIf
//     streams one result per scenario in request order, each with its
//     group and R30 blockers (readiness.Readiness, D190–D192), holding
//     results back only until the scenarios at the next minors are
//     answered; a scenario that is bad input carries its error and the
//     stream goes on.
//   - convert.go: proto↔model conversion, all of it unexported except
//     Response, ClusterProto and RequestProto for callers that hold model
//     values. Versions are parsed here; a bad one is a *model.FieldError
//     named by its proto field path, such as `request.pin["x"]`.
//   - status.go: toStatus, the one mapping from errors to gRPC status
//     codes (STYLE 8): bad input is InvalidArgument with BadRequest field
//     violations, a call beyond a bound is ResourceExhausted, deadlines and cancellation keep their codes, an unknown
//     catalog or module is NotFound, and anything else is Internal, logged
//     but not leaked. An unsatisfiable answer is a normal response.
//   - limits.go: the resource bounds. A weighted semaphore bounds the
//     solves in flight, with a short queue, and refuses the rest with
//     OverloadedError (RESOURCE_EXHAUSTED with RetryInfo); a WhatIf holds
//     one slot and borrows free ones as workers. Inline catalogs are
//     bounded in bytes and modules, and the solver's memory per request
//     through solver.WithMemoryLimit.
//   - interceptors.go: panic recovery (Internal, logged with the stack)
//     and one structured log line per call (method, code, duration, peer),
//     at debug level for a call answered OK (D113).
//   - render.go: MarshalJSON, the JSON form the CLI prints with -o json,
//     and BadInput, the one wording of a bad what-if scenario, which the
//     WhatIf stream and every output of `modsolver whatif` carry (D103).
//   - observe.go: Observer, told by interceptors of every Resolve, Explain
//     and WhatIf call and its outcome, read from the response (metrics
//     are the caller's); WithServerOptions for transport credentials,
//     keepalive and outer interceptors; Ready, which backs /readyz.
//   - tls.go: TLSCredentials, TLS and mutual TLS from PEM files that
//     gRPC's pemfile provider re-reads, so that a rotated Secret takes
//     effect without a restart.
//
// The package reads no catalog files itself: it imports only model,
// solver and the generated proto package. Inline catalogs are parsed by
// a CatalogParser that the caller supplies (cmd/modsolver adapts
// catalog.Parse), and kubectl dumps by a ClusterParser
// (catalog.KubectlParser).
package server
