#!/usr/bin/env node
// Lint graphmem's Neo4j-dialect Cypher with Neo4j's own parser and semantic analysis.
//   node tools/cypher-lint/lint.mjs DIR...
// Every DIR/*.cypher except *.falkordb.cypher is read the way graphmem/queries.py reads it:
// `// params: a, b` declares the parameters, lines starting with `//` are dropped, the rest
// is stripped and split on ';' into statements. Each statement goes through lintCypherQuery
// (Cypher 5, so deprecations are reported) with those parameters declared, so an undeclared
// `$x` is an error; a declared parameter the text never uses is flagged too.
// Prints `file:line:col: severity: message` (file positions, 1-based) and a summary line;
// exits 1 if anything was reported.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { lintCypherQuery } from '@neo4j-cypher/language-support';
import { testData } from './node_modules/@neo4j-cypher/language-support/dist/esm/project/language-support/src/tests/testData.js';

const SEVERITY = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

// Neo4j's built-in functions and db.*/dbms.*/tx.* procedures (no APOC, no GDS), taken from the
// package's own recorded Neo4j schema, so FalkorDB-only calls such as vecf32() or db.idx.* are
// flagged in the Neo4j dialect. (An internal file: pinned package version.)
const pick = (registry, keep) => Object.fromEntries(Object.entries(registry).map(([version, entries]) =>
  [version, Object.fromEntries(Object.entries(entries).filter(([name, entry]) => keep(name, entry)))]));
const BUILTINS = {
  functions: pick(testData.mockSchema.functions, (_, f) => f.isBuiltIn),
  procedures: pick(testData.mockSchema.procedures, (name) => /^(db|dbms|tx)\./.test(name)),
};

function lintFile(file) {
  const raw = readFileSync(file, 'utf8');
  const lines = raw.split(/\r\n|\r|\n/);
  const paramsAt = lines.findIndex((l) => /^\/\/\s*params:/.test(l));
  const params = paramsAt < 0 ? [] : lines[paramsAt].replace(/^\/\/\s*params:/, '').split(',').map((p) => p.trim()).filter(Boolean);

  // queries.py: drop comment lines, join, strip; remember each kept line's file line number
  const kept = lines.map((text, i) => ({ text, line: i + 1 })).filter((l) => !l.text.trimStart().startsWith('//'));
  const joined = kept.map((l) => l.text).join('\n');
  const text = joined.trim();
  const base = joined.length - joined.trimStart().length;
  // offset in `text` -> [file line, column], both 1-based
  const where = (offset) => {
    let at = base + offset;
    for (const l of kept) {
      if (at <= l.text.length) return [l.line, at + 1];
      at -= l.text.length + 1;
    }
    const last = kept.at(-1) ?? { line: 1, text: '' };
    return [last.line, last.text.length + 1];
  };

  const dbSchema = { ...BUILTINS, parameters: Object.fromEntries(params.map((p) => [p, null])) };
  const out = [];
  let statements = 0;
  let offset = 0;
  for (const part of text.split(';')) {
    const statement = part.trim();
    const start = offset + (part.length - part.trimStart().length);
    offset += part.length + 1;
    if (!statement) continue;
    statements += 1;
    for (const d of lintCypherQuery(statement, dbSchema).diagnostics) {
      const [line, col] = where(start + d.offsets.start);
      out.push(`${file}:${line}:${col}: ${SEVERITY[d.severity] ?? 'error'}: ${d.message.replace(/\s+/g, ' ').trim()}`);
    }
  }
  const used = new Set([...text.matchAll(/\$`?(\w+)/g)].map((m) => m[1]));
  for (const p of params.filter((p) => !used.has(p))) {
    out.push(`${file}:${paramsAt + 1}:1: warning: parameter ${p} is declared in // params: but never used`);
  }
  if (paramsAt < 0 && used.size) out.push(`${file}:1:1: error: no // params: line, but the text uses $${[...used].join(', $')}`);
  return { statements, out };
}

const dirs = process.argv.slice(2);
if (!dirs.length) {
  console.error('usage: node lint.mjs DIR...');
  process.exit(2);
}
let files = 0, statements = 0, diagnostics = 0;
for (const dir of dirs) {
  const names = readdirSync(dir).filter((n) => n.endsWith('.cypher') && !n.endsWith('.falkordb.cypher')).sort();
  for (const name of names) {
    const result = lintFile(join(dir, name));
    files += 1;
    statements += result.statements;
    diagnostics += result.out.length;
    result.out.forEach((line) => console.log(line));
  }
}
console.log(`${files} files, ${statements} statements, ${diagnostics} diagnostics`);
process.exit(diagnostics ? 1 : 0);
