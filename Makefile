# godot-mcp — build, run and test. Everything the project needs is installed
# by these targets (Go modules via the module proxy, Node tools via npm).
SHELL := /bin/bash
GO    ?= go
BIN   := bin/godot-mcp
PKGS  := ./...

.PHONY: all build release run test test-go lint fmt-check vet gdparse e2e bench stress docs proto proto-check conformance clean

all: build

# CGO_ENABLED=0: a static binary. Nothing here needs cgo, and a binary
# linked against libc maps it in the host and in every built-in toolset's
# process (about 1.5-2 MB of RSS each). grpcnotrace: grpc-go leaves out its
# golang.org/x/net/trace request tracing (off unless grpc.EnableTracing,
# which nothing sets), about 0.5 MB less of the binary resident in a
# toolset's process. See docs/performance.md.
#
# The version is CalVer from the commit: its date (UTC) and short hash,
# e.g. 2026.12.02+93f0d6b, stamped into the server and the embedded addon.
VERSION ?= $(shell TZ=UTC git log -1 --format='%cd+%h' --abbrev=7 --date=format-local:%Y.%m.%d 2>/dev/null)
VERSION_LDFLAGS := $(if $(VERSION),-X github.com/godot-mcp/godot-mcp/host/buildinfo.Version=$(VERSION) -X github.com/godot-mcp/godot-mcp/addon.Version=$(VERSION))
build:
	@CGO_ENABLED=0 $(GO) build -tags grpcnotrace -ldflags '$(VERSION_LDFLAGS)' -o $(BIN) ./cmd/godot-mcp

# Static binaries for Linux, macOS and Windows on amd64 and arm64, stamped
# like build, their SHA256SUMS and the npm packages (a launcher, godot-mcp,
# and @godot-mcp/<platform>-<arch> with each binary), all in dist/; nothing
# is published (tools/release, docs/getting-started.md).
release:
	@$(GO) run ./tools/release -out dist $(if $(filter command line environment,$(origin VERSION)),-version $(VERSION))

# Runs the MCP server over stdio (the default transport). Nothing but MCP
# JSON-RPC is printed on stdout, so an MCP client may launch `make run`.
run: build
	@exec ./$(BIN)

# The whole CI suite: formatting, vet, staticcheck, unit + contract + transcript tests
# under the race detector (the third-party MCP clients from npm among them:
# conformance suite, Inspector CLI, TypeScript SDK), the addon's GDScript
# parse check, generated-code drift, and the real-editor e2e suite (which
# skips, saying why, when no Godot 4 binary is found via GODOT_BIN or PATH).
# It ends with one line: what ran, and what was skipped and why.
test: lint test-go gdparse proto-check
	@echo "make test: passed gofmt, go vet, staticcheck, GDScript parse, proto-check and go test: $$(cat bin/.test-go-summary)"

# go test's own output, then one summary line (tools/testsummary reads
# go test -json); the line is kept in bin/.test-go-summary for `make test`.
# The e2e suite runs after the other packages, once per Godot engine found
# (tools/e2erun; docs/godot-versions.md says where engines are looked for);
# the other packages' tests that use a Godot binary get the first engine.
test-go:
	@mkdir -p bin && $(GO) build -o bin/testsummary ./tools/testsummary && $(GO) build -o bin/e2erun ./tools/e2erun
	@set -o pipefail; { GODOT_BIN="$$(bin/e2erun -first)" GODOT_BINS= $(GO) test -race -count=1 -timeout 45m -json $$($(GO) list $(PKGS) | grep -v '/e2e$$'); bin/e2erun -json; } | bin/testsummary -out bin/.test-go-summary

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

lint: fmt-check vet
	$(GO) tool staticcheck $(PKGS)

gdparse:
	@bash tools/gdparse.sh

e2e:
	@$(GO) run ./tools/e2erun

bench:
	@bash tools/bench.sh

# Load test (loopback only, bounded): 100,000 tool calls from 64 concurrent
# MCP callers through one plugin and the fake addon. STRESS_CALLS,
# STRESS_CALLERS and STRESS_MAX_SECONDS override the bounds.
stress:
	GODOT_MCP_STRESS=1 $(GO) test -count=1 -run '^TestStress$$' -v -timeout 30m ./stress/...

# The official MCP conformance suite over streamable HTTP, with the
# 'conformance' fixture toolset (also run by `make test` via ./conformance).
# Node 22 and the suite come from npm, pinned in tools/conformance.
conformance:
	@bash tools/conformance/run.sh

# Regenerates docs/tool-contracts.md and the golden tools/list.
docs:
	$(GO) test ./cmd/godot-mcp -run 'TestToolContractsDoc|TestClientsDoc' -update
	$(GO) test ./host/mcpserver -run 'TestGoldenToolsList' -update
	$(GO) test ./host/config -run 'TestEnvVarsDoc' -update

clean:
	rm -rf bin

include proto.mk
