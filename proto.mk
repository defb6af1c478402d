# Plugin protocol code generation. Included from the Makefile.
#   make proto        regenerate internal/pluginproto from proto/ (buf from npm,
#                     pinned in proto/package.json; protoc-gen-go/-go-grpc via `go tool`)
#   make proto-check  fail if the committed generated code is stale
.PHONY: proto proto-check

proto:
	proto/generate.sh

proto-check:
	proto/generate.sh check
