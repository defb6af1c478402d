#!/usr/bin/env node
// The godot-mcp launcher: finds the godot-mcp binary of this platform (the
// optional dependency @godot-mcp/<platform>-<arch> that npm installed beside
// this package) and runs it with this process's arguments, stdin, stdout and
// stderr, so an MCP client that starts `npx -y godot-mcp` talks to the
// binary directly. Nothing is printed on stdout: it carries MCP JSON-RPC.
"use strict";

const { spawn } = require("child_process");

const platform = `${process.platform}-${process.arch}`;
const pkg = `@godot-mcp/${platform}`;
const exe = process.platform === "win32" ? "godot-mcp.exe" : "godot-mcp";

function findBinary() {
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch (err) {
    const known = Object.keys(require("../package.json").optionalDependencies || {});
    const msg = known.includes(pkg)
      ? `the package ${pkg} is not installed beside godot-mcp (optional dependencies left out? reinstall without --omit=optional / --no-optional)`
      : `no godot-mcp binary is published for ${platform} (there are: ${known.map((k) => k.replace("@godot-mcp/", "")).join(", ")}); build it from source with Go (make build)`;
    process.stderr.write(`godot-mcp: ${msg}\n`);
    process.exit(1);
  }
}

const child = spawn(findBinary(), process.argv.slice(2), { stdio: "inherit", windowsHide: true });
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    try {
      child.kill(sig);
    } catch (_) {
      // the child is gone already
    }
  });
}
child.on("error", (err) => {
  process.stderr.write(`godot-mcp: cannot start ${err.path || "the binary"}: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
