#!/usr/bin/env node
// gdparse: parse every .gd file under the given paths with tree-sitter-gdscript
// and report each syntax error as file:line:col (1-based), one per line.
// Exit status: 0 when every file parses, 1 when any file has an error, 2 on usage errors.
//
// This is a syntax check only (no type checking): the Godot editor itself is the
// authority; this catches broken files in CI where no Godot binary exists.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

function loadParser() {
  const Parser = require('tree-sitter');
  const GDScript = require('tree-sitter-gdscript');
  const parser = new Parser();
  parser.setLanguage(GDScript);
  return parser;
}

// collectFiles returns every .gd file at or below each path, sorted.
function collectFiles(paths) {
  const out = [];
  const walk = (p) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) {
        if (name === 'node_modules' || name.startsWith('.')) continue;
        walk(path.join(p, name));
      }
    } else if (p.endsWith('.gd')) {
      out.push(p);
    }
  };
  for (const p of paths) walk(p);
  return out.sort();
}

// Statements the grammar accepts at class level but Godot refuses there; they
// almost always mean a line lost its indentation.
const NOT_IN_CLASS_BODY = new Set([
  'expression_statement', 'return_statement', 'pass_statement', 'break_statement',
  'continue_statement', 'breakpoint_statement', 'if_statement', 'for_statement',
  'while_statement', 'match_statement',
]);

// The grammar is lenient in a few places Godot is not; these checks close the gaps
// that matter (a function without its ':' body, code at class level).
function structural(node, found) {
  if ((node.type === 'function_definition' || node.type === 'constructor_definition') && !node.childForFieldName('body')) {
    const pos = node.startPosition;
    found.push({ line: pos.row + 1, col: pos.column + 1, message: 'function has no body (missing \':\' or indented block?)' });
  }
  if (node.type === 'source' || node.type === 'class_body') {
    for (let i = 0; i < node.namedChildCount; i++) {
      const c = node.namedChild(i);
      if (NOT_IN_CLASS_BODY.has(c.type)) {
        const pos = c.startPosition;
        found.push({ line: pos.row + 1, col: pos.column + 1, message: `${c.type.replace('_', ' ')} outside a function (check the indentation)` });
      }
    }
  }
}

// problems returns [{line, col, message}] for every ERROR and MISSING node in
// source, and for the structural mistakes the grammar lets through.
function problems(parser, source) {
  // The node binding reads the string in chunks of bufferSize; large files need a
  // larger buffer or parse() throws.
  const tree = parser.parse(source, null, { bufferSize: source.length * 4 + 1024 });
  const found = [];
  const visit = (node) => {
    if (node.type === 'ERROR' || node.isMissing) {
      const pos = node.startPosition;
      let message;
      if (node.isMissing) {
        message = `missing ${node.type}`;
      } else {
        const text = source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 40)).split('\n')[0];
        message = `syntax error near ${JSON.stringify(text)}`;
      }
      found.push({ line: pos.row + 1, col: pos.column + 1, message });
      if (node.type === 'ERROR') return; // one report per error region
    }
    structural(node, found);
    for (let i = 0; i < node.childCount; i++) visit(node.child(i));
  };
  visit(tree.rootNode);
  found.sort((a, b) => a.line - b.line || a.col - b.col);
  return found;
}

// check parses files and returns the list of "file:line:col: message" strings.
function check(files, parser = loadParser()) {
  const lines = [];
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8');
    for (const p of problems(parser, source)) {
      lines.push(`${file}:${p.line}:${p.col}: ${p.message}`);
    }
  }
  return lines;
}

function main(argv) {
  const paths = argv.length > 0 ? argv : [path.join(__dirname, '..', 'addon')];
  for (const p of paths) {
    if (!fs.existsSync(p)) {
      process.stderr.write(`gdparse: no such file or directory: ${p}\n`);
      return 2;
    }
  }
  const files = collectFiles(paths);
  if (files.length === 0) {
    process.stderr.write(`gdparse: no .gd files under ${paths.join(', ')}\n`);
    return 2;
  }
  const lines = check(files);
  for (const l of lines) process.stdout.write(l + '\n');
  if (lines.length > 0) {
    process.stderr.write(`gdparse: ${lines.length} syntax error(s) in ${files.length} file(s)\n`);
    return 1;
  }
  process.stderr.write(`gdparse: ${files.length} file(s) parse cleanly\n`);
  return 0;
}

module.exports = { collectFiles, problems, check, loadParser };

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
