#!/usr/bin/env node
// Checks Folio's import rules (scripts/import-rules.mjs): `npm run lint:deps`, run by `npm test` before the
// unit tests. It reads every source file with the project's own TypeScript (the parser tsc uses, so it sees
// what tsc sees: `import type`, `export ... from`, import() and require()), resolves each import to a file,
// a node built-in (`node:fs`) or a package (`npm:kysely`), and reports every import a rule forbids and every
// import cycle. Exit code 1 on any violation.
//
// Own code, not dependency-cruiser: its last version for Node 20 (16.x) reads TypeScript only up to 5.x and,
// given TypeScript 6, reads no .ts file at all and reports "no violations" (0 modules cruised). This is the
// part of it Folio needs: files, imports, rules, cycles.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.js', '.mjs', '.cjs', '/index.ts', '/index.tsx', '/index.js'];
const BUILTINS = new Set(builtinModules.map((m) => m.replace(/^node:/, '')));

/**
 * @typedef {{ from: string, to: string, typeOnly: boolean, names: string[], line: number, specifier: string }} Import
 *   `to`: a path relative to the root (`main/services/x.ts`), `node:<name>` or `npm:<package>`.
 * @typedef {{ name: string, why: string, from?: RegExp, fromNot?: RegExp, to?: RegExp, toNot?: RegExp,
 *   names?: string[], valuesOnly?: boolean, cycles?: boolean }} Rule
 *   An import breaks a rule when its file matches `from` and not `fromNot`, its target matches `to` and not
 *   `toNot`, it takes one of `names` (when given), and it is not type-only (when `valuesOnly`). A rule with
 *   `cycles` forbids instead every import cycle among the files matching `from`.
 * @typedef {{ rule: string, why: string, from: string, to: string, line: number, cycle?: string[] }} Violation
 */

/** Every source file under the folders (relative to root), in a stable order; node_modules never. */
export function sourceFiles(root, folders) {
  const out = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(child);
      } else if (SOURCE.test(entry.name)) out.push(child);
    }
  };
  for (const folder of folders) walk(folder.replace(/\/$/, ''));
  return out.sort();
}

function scriptKind(file) {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ts.ScriptKind.JSX;
  return /\.[mc]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
}

/** Where a specifier leads: a file relative to root, `node:x`, `npm:x`, or null (a relative path that is no file). */
export function resolveSpecifier(root, fromFile, specifier) {
  const bare = specifier.replace(/\?.*$/, ''); // Vite's `?url` and the like
  if (bare.startsWith('.') || bare.startsWith('/')) {
    const base = path.resolve(root, path.dirname(fromFile), bare);
    for (const suffix of RESOLVE_SUFFIXES) {
      const candidate = base + suffix;
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.relative(root, candidate).split(path.sep).join('/');
    }
    return null;
  }
  const name = bare.replace(/^node:/, '');
  if (bare.startsWith('node:') || BUILTINS.has(name.split('/')[0])) return `node:${name.split('/')[0]}`;
  const parts = bare.split('/');
  return `npm:${bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]}`;
}

/** The imports of one file, as written (specifier, type-only or not, the names taken, the line). */
export function importsOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found = [];
  const add = (node, specifierNode, typeOnly, names = []) => {
    if (!specifierNode || !ts.isStringLiteralLike(specifierNode)) return; // import(variable): not knowable
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier: specifierNode.text, typeOnly, names, line });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
      // `import { type A, type B } from` is erased like `import type`; a bare `import './x'` runs x.
      const allTypes = !!clause && !clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && named.length > 0 && named.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier, !!clause?.isTypeOnly || allTypes, named.map((e) => (e.propertyName ?? e.name).text));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : [];
      const allTypes = named.length > 0 && named.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier, node.isTypeOnly || allTypes, named.map((e) => (e.propertyName ?? e.name).text));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true); // import('x').T in a type
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // const { parentPort } = require('node:worker_threads'): the names a CommonJS file takes.
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      const init = decl.initializer;
      if (init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require' && ts.isObjectBindingPattern(decl.name)) {
        const hit = found.find((f) => f.line === source.getLineAndCharacterOfPosition(init.getStart(source)).line + 1 && !f.names.length);
        if (hit) hit.names = decl.name.elements.map((e) => (e.propertyName ?? e.name).getText(source));
      }
    }
  }
  return found;
}

/** Every import of the files under `folders`, resolved; `unresolved` lists relative imports of no file. */
export function readImports(root, folders) {
  const files = sourceFiles(root, folders);
  /** @type {Import[]} */
  const imports = [];
  const unresolved = [];
  for (const file of files) {
    for (const found of importsOf(file, fs.readFileSync(path.join(root, file), 'utf8'))) {
      const to = resolveSpecifier(root, file, found.specifier);
      if (to === null) unresolved.push({ from: file, specifier: found.specifier, line: found.line });
      else imports.push({ from: file, to, typeOnly: found.typeOnly, names: found.names, line: found.line, specifier: found.specifier });
    }
  }
  return { files, imports, unresolved };
}

function breaks(rule, imp) {
  if (rule.from && !rule.from.test(imp.from)) return false;
  if (rule.fromNot && rule.fromNot.test(imp.from)) return false;
  if (rule.to && !rule.to.test(imp.to)) return false;
  if (rule.toNot && rule.toNot.test(imp.to)) return false;
  if (rule.valuesOnly && imp.typeOnly) return false;
  if (rule.names && !imp.names.some((n) => rule.names.includes(n))) return false;
  return true;
}

/**
 * The import cycles among `files`: each strongly connected group of files (Tarjan), shown as one cycle
 * through it, from its first file back to itself. Type-only imports count: two files that each need the
 * other's types cannot be understood or moved apart either.
 */
export function findCycles(files, imports) {
  const inside = new Set(files);
  const edges = new Map(files.map((f) => [f, []]));
  for (const imp of imports) if (inside.has(imp.from) && inside.has(imp.to) && !edges.get(imp.from).includes(imp.to)) edges.get(imp.from).push(imp.to);
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const connect = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || edges.get(v).includes(v)) groups.push(group.sort());
    }
  };
  for (const f of files) if (!index.has(f)) connect(f);
  // One shortest way round each group, from its first file (breadth first, inside the group).
  return groups.map((group) => {
    const members = new Set(group);
    const start = group[0];
    const previous = new Map();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift();
      for (const w of edges.get(v)) {
        if (!members.has(w) || previous.has(w)) continue;
        previous.set(w, v);
        if (w === start) {
          queue.length = 0;
          break;
        }
        queue.push(w);
      }
    }
    const cycle = [start];
    for (let v = previous.get(start); v !== start; v = previous.get(v)) cycle.unshift(v);
    cycle.unshift(start);
    return { cycle, files: group };
  });
}

/** Checks the rules over the files under `folders` (relative to root). */
export function checkImports({ root, folders, rules }) {
  const { files, imports, unresolved } = readImports(root, folders);
  /** @type {Violation[]} */
  const violations = unresolved.map((u) => ({ rule: 'resolvable', why: 'a relative import that leads to no file (or the checker could not follow it)', from: u.from, to: u.specifier, line: u.line }));
  for (const rule of rules) {
    if (rule.cycles) {
      const scope = files.filter((f) => (!rule.from || rule.from.test(f)) && !(rule.fromNot && rule.fromNot.test(f)));
      for (const { cycle, files: group } of findCycles(scope, imports)) {
        const imp = imports.find((i) => i.from === cycle[0] && i.to === cycle[1]);
        violations.push({ rule: rule.name, why: rule.why, from: cycle[0], to: cycle[1], line: imp?.line ?? 0, cycle, group });
      }
      continue;
    }
    for (const imp of imports) if (breaks(rule, imp)) violations.push({ rule: rule.name, why: rule.why, from: imp.from, to: imp.to, line: imp.line });
  }
  return { files, imports, violations };
}

/** The report a person reads: one line per violation, grouped by rule, with the rule's reason once. */
export function formatViolations(violations) {
  const lines = [];
  for (const name of [...new Set(violations.map((v) => v.rule))]) {
    const mine = violations.filter((v) => v.rule === name);
    lines.push(`${name} (${mine.length}): ${mine[0].why}`);
    for (const v of mine) {
      if (!v.cycle) lines.push(`  ${v.from}:${v.line} -> ${v.to}`);
      else {
        lines.push(`  ${v.cycle.join(' -> ')}`);
        // More files than this one loop: all of them are tied together; name them, the way out may be elsewhere.
        if (v.group.length > v.cycle.length - 1) lines.push(`    (one knot of ${v.group.length} files: ${v.group.join(', ')})`);
      }
    }
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { ROOTS, RULES } = await import('./import-rules.mjs');
  // The repository this script is in; another folder laid out alike when given (the rules' own test).
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const { files, imports, violations } = checkImports({ root, folders: ROOTS, rules: RULES });
  if (violations.length) {
    console.error(formatViolations(violations));
    console.error(`\n${violations.length} import rule violation(s) in ${files.length} files (rules: scripts/import-rules.mjs)`);
    process.exit(1);
  }
  console.log(`import rules: ${RULES.length} rules, ${files.length} files, ${imports.length} imports, no violations`);
}
