// Self-test of the GDScript parse check: it must pass clean files and fail,
// with file:line:col, on broken ones. Run: node --test gdparse.test.js
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const GDPARSE = path.join(__dirname, 'gdparse.js');

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdparse-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function run(...args) {
  return spawnSync(process.execPath, [GDPARSE, ...args], { encoding: 'utf8' });
}

const VALID = `@tool
extends RefCounted

const Codec := preload("value_codec.gd")
static var cache: Dictionary = {}

signal done(ok: bool)

func handle(params: Dictionary) -> Dictionary:
\tvar count: int = int(params.get("count", 1))
\tfor i: int in range(count):
\t\tif i % 2 == 0:
\t\t\tcontinue
\tvar f := func(x: int) -> int: return x * 2
\tmatch typeof(params):
\t\tTYPE_DICTIONARY:
\t\t\treturn {"ok": true, "result": {"n": f.call(count)}}
\treturn {"ok": false}
`;

const cases = [
  { name: 'missing colon after func signature', src: 'extends Node\n\nfunc f() -> void\n\tpass\n', line: 3 },
  { name: 'unclosed parenthesis', src: 'extends Node\n\nfunc f() -> void:\n\tprint("a"\n\tpass\n', line: 4 },
  { name: 'stray token', src: 'extends Node\n\nfunc f() -> void:\n\tvar x: int = 1 +* 2\n', line: 4 },
  { name: 'statement dedented to class level', src: 'extends Node\n\nfunc f() -> void:\n\tvar x := 1\nprint(x)\n', line: 5 },
  { name: 'unclosed dictionary', src: 'extends Node\nvar d := {"a": 1,\n\nfunc f() -> void:\n\tpass\n', line: 2 },
];

test('a valid script parses cleanly', (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'ok.gd'), VALID);
  const r = run(dir);
  assert.strictEqual(r.status, 0, r.stdout + r.stderr);
  assert.strictEqual(r.stdout, '');
});

for (const c of cases) {
  test(`a broken script fails: ${c.name}`, (t) => {
    const dir = tempDir(t);
    const file = path.join(dir, 'broken.gd');
    fs.writeFileSync(file, c.src);
    fs.writeFileSync(path.join(dir, 'fine.gd'), VALID);
    const r = run(dir);
    assert.strictEqual(r.status, 1, `want exit 1, got ${r.status}\n${r.stdout}${r.stderr}`);
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines.length >= 1);
    for (const l of lines) {
      const m = l.match(/^(.*):(\d+):(\d+): /);
      assert.ok(m, `not file:line:col: ${l}`);
      assert.strictEqual(m[1], file, 'only the broken file is reported');
    }
    const firstLine = Number(lines[0].match(/:(\d+):\d+: /)[1]);
    assert.ok(Math.abs(firstLine - c.line) <= 1, `error reported at line ${firstLine}, want about ${c.line}: ${lines[0]}`);
  });
}

test('a missing path is a usage error', () => {
  const r = run(path.join(os.tmpdir(), 'gdparse-does-not-exist'));
  assert.strictEqual(r.status, 2);
});

test('the addon itself parses', () => {
  const r = run(path.join(__dirname, '..', 'addon'));
  assert.strictEqual(r.status, 0, r.stdout + r.stderr);
});
