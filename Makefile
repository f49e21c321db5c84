# modsolver: the two commands a new user needs are `make run` and `make test`.
# Everything else they need comes through the Go toolchain.

GO        ?= go
BIN       := $(CURDIR)/bin
BUF       := $(GO) run github.com/bufbuild/buf/cmd/buf@v1.75.0
FUZZTIME  ?= 60s

.PHONY: run test vet bench bench-build bench-check libsolv fuzz proto proto-tools proto-lint proto-check ci build static clean help browser-check

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

run: ## serve gRPC on :50051 with the embedded demo catalog
	$(GO) run ./cmd/modsolver serve

# Each phase of test says first what it does and about how long it takes
# on 2 cores, since the builds print nothing while they run (D411).
test: vet ## run every test, including the shared acceptance scenarios
	@test -d ../shared/scenarios || test -n "$$MODSOLVER_SHARED" || echo "NOTICE: ../shared is missing: the shared acceptance suites are skipped (go test -v names them)"
	@echo "make test: 1/4 every package's tests (a cold build cache compiles for several minutes first; then a line per package as it passes, about 1 minute)…"
	$(GO) test -count=1 ./...
	@echo "make test: 2/4 the server's tests under -race (the race build takes about 2 minutes on 2 cores with a cold cache, and prints nothing until it passes)…"
	$(GO) test -race -count=1 ./server/...
	@echo "make test: 3/4 the solver's what-if and shared-state tests under -race (about 1 minute to build on 2 cores, then under a minute)…"
	$(GO) test -race -count=1 -run 'WhatIf|SharedBy|Goroutines' ./solver/
	@echo "make test: 4/4 the service's fault tests under load, -race (about 2 minutes to build on 2 cores, then about a minute)…"
	$(GO) test -race -count=1 -run '^TestFault' ./cmd/modsolver/
	@echo "make test: passed"

vet:
	@echo "make vet: go vet and gofmt (go vet builds every package: about a minute on 2 cores with a cold cache, seconds with a warm one)…"
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: the files above need formatting"; exit 1; }

CHROMIUM ?= /usr/bin/chromium

browser-check: ## check `whatif -o html` in headless chromium (installs Debian's chromium if missing); screenshots go to bin/screenshots
	@command -v $(CHROMIUM) >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	mkdir -p $(BIN)/screenshots
	MODSOLVER_CHROMIUM=$(CHROMIUM) MODSOLVER_SCREENSHOTS=$(BIN)/screenshots $(GO) test -count=1 -run 'InBrowser$$' -v ./cmd/modsolver/

build: ## build bin/modsolver
	$(GO) build -buildvcs=auto -o $(BIN)/modsolver ./cmd/modsolver

# VERSION names the static build; unset, `modsolver version` reads the build (D400).
VERSION ?=

static: ## build bin/modsolver-static, the static Linux binary deploy/Dockerfile copies
	CGO_ENABLED=0 GOOS=linux $(GO) build -trimpath -buildvcs=auto -ldflags '-s -w -X main.version=$(VERSION)' -o $(BIN)/modsolver-static ./cmd/modsolver

SHARED_DATA ?= ../shared/data

# The libsolv peer of `modsolver bench --vs libsolv` needs cgo and Debian's
# libsolv-dev; only the bench targets build with it (-tags libsolv), so
# build, test and run need no C library.
libsolv: ## install Debian's libsolv-dev when pkg-config cannot find libsolv
	@pkg-config --exists libsolv 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pkg-config libsolv-dev; }

bench-build: libsolv ## build bin/modsolver with the libsolv peer
	$(GO) build -tags libsolv -o $(BIN)/modsolver ./cmd/modsolver

bench-check: libsolv ## the libsolv peer's tests: its answers agree with modsolver's and pass the checker
	$(GO) test -tags libsolv -count=1 -run 'Libsolv|Bench' ./bench/ ./cmd/modsolver/

bench: bench-build ## the tables of docs/performance.md: generated S, M and L, libsolv side by side, real catalogs, the gRPC load test, Go benchmarks (not part of make test)
	$(BIN)/modsolver bench --size S --size M --vs deppy --runs 3
	$(BIN)/modsolver bench --size M --size L --vs libsolv --runs 31 --cases update-all,install-one,platform-upgrade,unsatisfiable
	$(BIN)/modsolver bench --size M --cases whatif-1000 --runs 3
	@if [ -d $(SHARED_DATA) ]; then \
		$(BIN)/modsolver bench --catalog $(SHARED_DATA)/dkp --cases resolve-dkp --vs deppy,libsolv --runs 3 && \
		$(BIN)/modsolver bench --catalog $(SHARED_DATA)/helm/bitnami-index.yaml --cases resolve-dkp --vs deppy --runs 3 && \
		$(BIN)/modsolver bench --catalog $(SHARED_DATA)/olm/community-operators-prod-bundles.json --cases resolve-dkp --vs deppy --runs 3; \
	else echo "bench: $(SHARED_DATA) not found; the runs on real catalogs are skipped"; fi
	$(BIN)/modsolver loadtest --duration 10s
	$(GO) test -run '^$$' -bench . -benchmem ./bench/

fuzz: ## run every fuzz target for FUZZTIME each
	$(GO) test -run '^$$' -fuzz '^FuzzParseConstraint$$' -fuzztime $(FUZZTIME) ./model
	$(GO) test -run '^$$' -fuzz '^FuzzSimpleTerms$$' -fuzztime $(FUZZTIME) ./model
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzParseState$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzLoadDir$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzOLMBundles$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzOLMFBC$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzHelmIndex$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzCompound$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzOLMConstraint$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzKUDO$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzPackageYAML$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) ./settings
	$(GO) test -run '^$$' -fuzz '^FuzzV2Requirements$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzKubectl$$' -fuzztime $(FUZZTIME) ./catalog
	$(GO) test -run '^$$' -fuzz '^FuzzRequestToModel$$' -fuzztime $(FUZZTIME) ./server
	# differential: the fuzz input seeds internal/randscen; the solver must agree with internal/oracle
	$(GO) test -run '^$$' -fuzz '^FuzzDifferential$$' -fuzztime $(FUZZTIME) ./internal/oracle

proto-tools:
	GOBIN=$(BIN) $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
	GOBIN=$(BIN) $(GO) install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.0

proto-lint: ## lint the proto files with buf
	$(BUF) lint
	$(BUF) format -d --exit-code proto

proto: proto-tools proto-lint ## regenerate proto/modsolver/v1 (the result is committed)
	$(BUF) generate

proto-check: proto ## fail if the generated code is stale or the API broke compatibility
	@git diff --exit-code -- proto/ && test -z "$$(git status --porcelain -- proto/)" || { git status --porcelain -- proto/; echo "generated proto code is stale: run make proto"; exit 1; }
	$(BUF) breaking --against '.git#ref=HEAD'

ci: test proto-check ## what CI runs (.ci/run)

clean:
	rm -rf $(BIN)
