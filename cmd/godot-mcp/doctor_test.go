package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/addon"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest/fakeaddon"
)

// fakeGodot is a script that answers --version like Godot 4.4.1.
func fakeGodot(t *testing.T, version string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "godot")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho "+version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// keepDialing dials url as an editor until ctx ends (the doctor's
// temporary bridge comes and goes).
func keepDialing(ctx context.Context, url, projectDir, addonVersion string) {
	hello := fakeaddon.DefaultHello()
	hello.AddonVersion = addonVersion
	hello.ProjectDir = projectDir
	for ctx.Err() == nil {
		dctx, cancel := context.WithTimeout(ctx, time.Second)
		a, err := fakeaddon.Dial(dctx, url, fakeaddon.WithHello(hello))
		cancel()
		if err == nil {
			<-ctx.Done()
			a.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func doctorLine(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// From an empty project to every check passing, as a new user would go.
func TestDoctorFromZero(t *testing.T) {
	project := tempProject(t)
	port := freePort(t)
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + t.TempDir(), "GODOT_BIN=" + filepath.Join(t.TempDir(), "no-godot")}

	out, _, code := runBinary(t, env, "doctor", "--project", project, "--wait", "300ms")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		"FAIL  addon: not installed",
		"FAIL  plugin: not enabled in project.godot",
		"ok    bridge: ws://127.0.0.1:" + port + " is free",
		"FAIL  editor: no editor dialed",
		"FAIL  godot (headless runs):",
	} {
		if doctorLine(out, want) == "" {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "fix: godot-mcp addon install --project "+project+" --enable") {
		t.Errorf("no install fix in:\n%s", out)
	}

	if _, errOut, code := runBinary(t, nil, "addon", "install", "--project", project, "--enable"); code != 0 {
		t.Fatal(errOut)
	}
	env = append(env, "GODOT_BIN="+fakeGodot(t, "4.4.1.stable.official.49a5bc7b6"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go keepDialing(ctx, "ws://127.0.0.1:"+port, project, addon.Version)
	out, _, code = runBinary(t, env, "doctor", "--project", project, "--wait", "10s")
	cancel()
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s", code, out)
	}
	for _, want := range []string{
		"ok    addon: version " + addon.Version + " installed, matches this server",
		"ok    plugin: enabled in project.godot",
		"ok    editor: connected: project " + project,
		"ok    editor Godot version: Godot 4.4 is tested",
		"ok    godot (headless runs):",
		"all checks passed.",
	} {
		if doctorLine(out, want) == "" {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
}

// An addon of another release, a Godot too old.
func TestDoctorVersionMismatches(t *testing.T) {
	project := tempProject(t)
	if _, errOut, code := runBinary(t, nil, "addon", "install", "--project", project, "--enable"); code != 0 {
		t.Fatal(errOut)
	}
	manifest := filepath.Join(project, "addons", "godot_mcp", ".godot_mcp_stamp.json")
	data, _ := os.ReadFile(manifest)
	os.WriteFile(manifest, []byte(strings.Replace(string(data), addon.Version, "2020.01.01", 1)), 0o644)
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + freePort(t), "GODOT_BIN=" + fakeGodot(t, "4.2.2.stable")}
	out, _, code := runBinary(t, env, "doctor", "--project", project, "--wait", "0")
	if code != 1 || doctorLine(out, "FAIL  addon: version 2020.01.01 installed, this server is "+addon.Version) == "" ||
		doctorLine(out, "warn  godot (headless runs):") == "" || !strings.Contains(out, "4.4 or newer") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// A running server owns the bridge: doctor asks it about its editor.
func TestDoctorAsksTheRunningServer(t *testing.T) {
	port := freePort(t)
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + t.TempDir()}
	server := startBinary(t, env...)
	server.Initialize()
	waitLog(t, server, "attach here")

	out, _, _ := runBinary(t, env, "doctor", "--wait", "0")
	if doctorLine(out, "ok    bridge: ws://127.0.0.1:"+port+" is owned by godot-mcp") == "" ||
		doctorLine(out, "FAIL  editor: no editor is connected to the running server") == "" {
		t.Fatalf("without an editor:\n%s", out)
	}
	a := dialEditor(t, server.BridgeURL(), "/tmp/game")
	out, _, _ = runBinary(t, env, "doctor", "--wait", "0")
	if doctorLine(out, "ok    editor: connected: project "+a.ProjectDir()) == "" ||
		doctorLine(out, "ok    editor Godot version: Godot 4.4 is tested") == "" ||
		doctorLine(out, "FAIL  editor addon: Addon version fakeaddon differs from server version") == "" {
		t.Fatalf("with an editor:\n%s", out)
	}
	server.AssertOnlyJSONRPC()
}

// Something else on the bridge port.
func TestDoctorBridgePortTakenByAnother(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://" + ln.Addr().String(), "XDG_RUNTIME_DIR=" + t.TempDir()}
	out, _, code := runBinary(t, env, "doctor", "--project", tempProject(t))
	if code != 1 || doctorLine(out, "FAIL  bridge: ws://"+ln.Addr().String()+" is taken by a program that is not a godot-mcp server") == "" ||
		!strings.Contains(out, "GODOT_MCP_BRIDGE_URL") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// #24.11: whatever dials the bridge chooses the strings doctor prints:
// terminal escapes and other control characters in them are shown
// escaped, never sent to the terminal.
func TestDoctorPrintsNoPeerControlCharacters(t *testing.T) {
	project := tempProject(t)
	port := freePort(t)
	env := []string{"GODOT_MCP_BRIDGE_URL=ws://127.0.0.1:" + port, "XDG_RUNTIME_DIR=" + t.TempDir(), "GODOT_BIN=" + fakeGodot(t, "4.4.1.stable")}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go keepDialing(ctx, "ws://127.0.0.1:"+port, project+"\x1b]0;pwned\x07\x1b[2J\r\nok    everything: fine", "\x1b[31mred\u009b1m")
	out, _, _ := runBinary(t, env, "doctor", "--project", project, "--wait", "10s")
	cancel()
	line := doctorLine(out, "ok    editor: connected: project "+project)
	if line == "" {
		t.Fatalf("no editor line:\n%q", out)
	}
	for _, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Fatalf("doctor printed the control character %U:\n%q", r, out)
		}
	}
	if doctorLine(out, "ok    everything") != "" {
		t.Fatalf("a peer's newline forged a line:\n%s", out)
	}
	if !strings.Contains(line, `\x1b]0;pwned\a`) && !strings.Contains(line, `\x1b]0;pwned\x07`) {
		t.Fatalf("the escape is not shown escaped: %q", line)
	}
}
