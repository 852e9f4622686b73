#!/usr/bin/env node
// Lint graphmem's Neo4j-dialect Cypher with Neo4j's own parser and semantic analysis.
//   node tools/cypher-lint/lint.mjs DIR... [FILE.md...]
// Every DIR/*.cypher except *.falkordb.cypher is read the way graphmem/queries.py reads it:
// `// params: a, b` declares the parameters, lines starting with `//` are dropped, the rest
// is stripped and split on ';' into statements; a file with a browser and a library tail is
// two statements, both linted. A Markdown file's ```cypher blocks are linted as Neo4j Browser
// runs them, `:param` lines included. Each statement goes through lintCypherQuery
// (Cypher 5, so deprecations are reported) with those parameters declared, so an undeclared
// `$x` is an error; a declared parameter the text never uses is flagged too.
// Prints `file:line:col: severity: message` (file positions, 1-based) and a summary line;
// exits 1 if anything was reported.
import { readFileSync, readdirSync, statSync } from 'node:fs';
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

// Lint one statement text made of `kept` lines ({text, line, col}: the file line and the column
// its text starts at), split on ';', with `params` declared. Returns [statements, diagnostics].
function lintLines(file, kept, params) {
  const joined = kept.map((l) => l.text).join('\n');
  const text = joined.trim();
  const base = joined.length - joined.trimStart().length;
  // offset in `text` -> [file line, column], both 1-based
  const where = (offset) => {
    let at = base + offset;
    for (const l of kept) {
      if (at <= l.text.length) return [l.line, l.col + at];
      at -= l.text.length + 1;
    }
    const last = kept.at(-1) ?? { line: 1, col: 1, text: '' };
    return [last.line, last.col + last.text.length];
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
  return [statements, out, text];
}

const isComment = (l) => l.trimStart().startsWith('//');
const plain = (text, i) => ({ text, line: i + 1, col: 1 });

// A cypher/ file, read the way graphmem/queries.py reads it. A file with a `// browser:` tail
// and a `// library:` tail holds two statements: the part before `// browser:` followed by
// either tail (the library's is its `//|` lines, uncommented); both are linted.
function lintFile(file) {
  const raw = readFileSync(file, 'utf8');
  const lines = raw.split(/\r\n|\r|\n/);
  const paramsAt = lines.findIndex((l) => /^\/\/\s*params:/.test(l));
  const params = paramsAt < 0 ? [] : lines[paramsAt].replace(/^\/\/\s*params:/, '').split(',').map((p) => p.trim()).filter(Boolean);
  const browserAt = lines.findIndex((l) => /^\/\/\s*browser:/.test(l.trimStart()));
  const libraryAt = lines.findIndex((l) => /^\/\/\s*library:/.test(l.trimStart()));
  const forms = [];
  const out = [];
  if (browserAt < 0 && libraryAt < 0) {
    forms.push(lines.map(plain).filter((l) => !isComment(l.text)));
  } else if (browserAt < 0 || libraryAt < browserAt) {
    out.push(`${file}:${Math.max(browserAt, libraryAt) + 1}:1: error: a '// browser:' line must come before a '// library:' line`);
  } else {
    const shared = lines.slice(0, browserAt).map(plain).filter((l) => !isComment(l.text));
    const readable = lines.slice(browserAt, libraryAt).map((t, i) => plain(t, browserAt + i)).filter((l) => !isComment(l.text));
    const fast = lines.slice(libraryAt + 1).map((t, i) => ({ raw: t, line: libraryAt + i + 2 }))
      .filter((l) => l.raw.trimStart().startsWith('//|'))
      .map((l) => {
        const m = /^(\s*\/\/\| ?)(.*)$/.exec(l.raw);
        return { text: m[2], line: l.line, col: m[1].length + 1 };
      });
    forms.push([...shared, ...readable], [...shared, ...fast]);
  }
  let statements = 0;
  const texts = [];
  for (const kept of forms) {
    const [n, found, text] = lintLines(file, kept, params);
    statements += n;
    out.push(...found);
    texts.push(text);
  }
  const used = new Set(texts.flatMap((text) => [...text.matchAll(/\$`?(\w+)/g)].map((m) => m[1])));
  for (const p of params.filter((p) => !used.has(p))) {
    out.push(`${file}:${paramsAt + 1}:1: warning: parameter ${p} is declared in // params: but never used`);
  }
  if (paramsAt < 0 && used.size) out.push(`${file}:1:1: error: no // params: line, but the text uses $${[...used].join(', $')}`);
  return { statements, out };
}

// A Markdown file's ```cypher blocks, each as Neo4j Browser takes it: `:param name => value;`
// lines declare parameters (each value is linted as an expression), the rest is statements
// separated by ';'.
function lintMarkdown(file) {
  const lines = readFileSync(file, 'utf8').split(/\r\n|\r|\n/);
  const out = [];
  let statements = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!/^```cypher\s*$/.test(lines[i])) continue;
    const block = [];
    for (i += 1; i < lines.length && !/^```\s*$/.test(lines[i]); i++) block.push(plain(lines[i], i));
    const params = [];
    const kept = [];
    for (const l of block) {
      const m = /^(:param\s+)(\w+)(\s*=>\s*)(.*?);?\s*$/.exec(l.text);
      if (m) {
        params.push(m[2]);
        const col = m[1].length + m[2].length + m[3].length + 1;
        const [, found] = lintLines(file, [{ text: 'RETURN ' + m[4] + ' AS value', line: l.line, col: col - 7 }], []);
        out.push(...found);
      } else if (/^:/.test(l.text)) {
        out.push(`${file}:${l.line}:1: error: a Browser command other than :param`);
      } else if (!isComment(l.text)) {
        kept.push(l);
      }
    }
    const [n, found] = lintLines(file, kept, params);
    statements += n;
    out.push(...found);
  }
  return { statements, out };
}

const args = process.argv.slice(2);
if (!args.length) {
  console.error('usage: node lint.mjs DIR|FILE.md...');
  process.exit(2);
}
let files = 0, statements = 0, diagnostics = 0;
for (const arg of args) {
  const paths = statSync(arg).isDirectory()
    ? readdirSync(arg).filter((n) => n.endsWith('.cypher') && !n.endsWith('.falkordb.cypher')).sort().map((n) => join(arg, n))
    : [arg];
  for (const path of paths) {
    const result = path.endsWith('.md') ? lintMarkdown(path) : lintFile(path);
    files += 1;
    statements += result.statements;
    diagnostics += result.out.length;
    result.out.forEach((line) => console.log(line));
  }
}
console.log(`${files} files, ${statements} statements, ${diagnostics} diagnostics`);
process.exit(diagnostics ? 1 : 0);
