package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/mcpserver"
)

var update = flag.Bool("update", false, "rewrite generated docs")

// TestToolContractsDoc fails when docs/tool-contracts.md drifts from the live registry.
func TestToolContractsDoc(t *testing.T) {
	surface, err := buildSurface(context.Background(), binPath)
	if err != nil {
		t.Fatal(err)
	}
	want := surface.Markdown()
	path := filepath.Join("..", "..", "docs", "tool-contracts.md")
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("docs/tool-contracts.md is stale: run `make docs` and review the diff (does contract_version need a bump?)")
	}
}

func TestContractCommandPrintsSurface(t *testing.T) {
	var out bytes.Buffer
	cmd := exec.Command(binPath, "contract")
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	var s mcpserver.Surface
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("contract output is not the surface JSON: %v", err)
	}
	if s.ContractVersion != 2 || s.MinCompatibleContract != 2 || len(s.ErrorCodes) != 8 {
		t.Fatalf("surface: %+v", s)
	}
	names := map[string]bool{}
	for _, ts := range s.Toolsets {
		for _, tool := range ts.Tools {
			if names[tool.Name] {
				t.Fatalf("tool %s listed twice", tool.Name)
			}
			names[tool.Name] = true
			if len(tool.InputSchema) == 0 || len(tool.OutputSchema) == 0 {
				t.Errorf("%s lacks a schema", tool.Name)
			}
		}
	}
	if !names["godot_get_server_info"] {
		t.Fatal("core tools missing from the surface")
	}
}
