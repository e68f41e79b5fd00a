// Import circles in src/: fails when two modules reach each other through their imports, unless
// scripts/cycles-allowed.json lists the circle (a list that must shrink to empty).
//
// Two graphs are checked, and reported apart:
// - value imports: what Node loads. A circle here can see a module half-initialized.
// - all imports, `import type` and `export type … from` too: harmless at run time (erased), but
//   still a layering smell (two modules that each know the other are one module, or share a
//   third). Under verbatimModuleSyntax `import { type A }` is kept as `import {}`: a value import.
// Dynamic `import()` is not an edge (it loads later, never while the importer initializes).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
/** The folder checked: src/, or the one named as the first argument. */
const srcDir = resolve(root, process.argv[2] ?? 'src');
const allowFile = join(import.meta.dirname, 'cycles-allowed.json');

/** Every .ts file under `dir` (declarations and the generated schema included). */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The file a relative specifier names (`./x.js` is `./x.ts`), or undefined when none is. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js)$/, '');
  for (const file of [`${stem}.ts`, `${stem}.d.ts`, join(base, 'index.ts')]) {
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The static imports and re-exports of `file`: `{ to, type }`, `type` for type-only ones. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const edges = [];
  for (const node of source.statements) {
    const isImport = ts.isImportDeclaration(node);
    if (!isImport && !ts.isExportDeclaration(node)) continue;
    if (node.moduleSpecifier === undefined || !ts.isStringLiteral(node.moduleSpecifier)) continue;
    const to = resolveSpecifier(file, node.moduleSpecifier.text);
    if (to === undefined) continue;
    const type = isImport ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
    edges.push({ to, type });
  }
  return edges;
}

/** Tarjan: the strongly connected components of more than one file (or a file importing itself). */
function circles(files, next) {
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), order.get(w)));
    }
    if (low.get(v) !== order.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || next(v).includes(v)) found.push(component.sort());
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return found;
}

/** One shortest circle through the first file of `component`, as a path back to it. */
function samplePath(component, next) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  for (const v of queue) {
    for (const w of next(v)) {
      if (w === start) {
        const path = [start];
        for (let u = v; u !== undefined; u = previous.get(u)) path.unshift(u);
        return path;
      }
      if (members.has(w) && !previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

const files = sources(srcDir);
const inSrc = new Set(files);
// Edges that leave src/ (a test's fixture, scripts/) cannot close a circle within it.
const graph = new Map(files.map((file) => [file, importsOf(file).filter((e) => inSrc.has(e.to))]));
const valueNext = (v) => [
  ...new Set(
    graph
      .get(v)
      .filter((e) => !e.type)
      .map((e) => e.to),
  ),
];
const anyNext = (v) => [...new Set(graph.get(v).map((e) => e.to))];
const name = (file) => relative(root, file);

const valueCircles = circles(files, valueNext);
// A circle of all imports is reported as a type circle unless it is a value circle as it is.
const valueKeys = new Set(valueCircles.map((c) => c.join('\n')));
const typeCircles = circles(files, anyNext).filter((c) => !valueKeys.has(c.join('\n')));

// An allowed entry lets through any circle of its kind whose files are all in it (a circle that
// shrinks stays allowed); a `value` entry also lets through the type circle around it.
const allowed = existsSync(allowFile) ? JSON.parse(readFileSync(allowFile, 'utf8')).allowed : [];
const isAllowed = (component, kind) =>
  allowed.some(
    (entry) =>
      (entry.kind === kind || entry.kind === 'value') &&
      component.every((file) => entry.files.includes(name(file))),
  );
const used = new Set();

let failed = 0;
for (const [kind, found, next] of [
  ['value', valueCircles, valueNext],
  ['type', typeCircles, anyNext],
]) {
  for (const component of found) {
    const ok = isAllowed(component, kind);
    for (const entry of allowed) {
      if (component.every((file) => entry.files.includes(name(file)))) used.add(entry);
    }
    if (!ok) failed++;
    console.log(
      `${ok ? 'allowed' : 'CIRCLE'} (${kind} imports, ${String(component.length)} files): ` +
        samplePath(component, next).map(name).join(' -> '),
    );
    if (component.length > 2) console.log(`  files: ${component.map(name).join(', ')}`);
  }
}
for (const entry of allowed) {
  if (!used.has(entry)) console.log(`stale allow-list entry (no such circle now): ${entry.files}`);
}
console.log(
  `check-cycles: ${String(valueCircles.length)} value, ${String(typeCircles.length)} type-only ` +
    `circle(s) in ${String(files.length)} files; ${String(failed)} not allowed`,
);
process.exitCode = failed === 0 ? 0 : 1;
