// The public surface, counted: for each subpath of package.json `exports` (the package's own
// entries; the reference servers' too), the names it exports and those without a doc comment.
// `node scripts/exports.mjs [--root <checkout>] [--check]`: prints a table; with --check, only
// what is undocumented, and exits 1 when a library subpath exports a name without a doc comment (a name is documented when its
// declaration, or the declaration its re-export points to, has a /** */ comment).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import process from 'node:process';
import ts from 'typescript';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = resolve(rootAt >= 0 ? (args[rootAt + 1] ?? '.') : '.');
const check = args.includes('--check');

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The source entry of a subpath: its `types` path under dist/, back to src/ or servers/. */
function sourceOf(target) {
  const types = typeof target === 'string' ? target : target.types;
  if (typeof types !== 'string') return undefined;
  const source = join(root, types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'));
  return existsSync(source) ? source : undefined;
}

const entries = Object.entries(pkg.exports)
  .map(([subpath, target]) => [subpath, sourceOf(target)])
  .filter(([, source]) => source !== undefined);

const program = ts.createProgram(
  entries.map(([, source]) => source),
  {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowJs: false,
    noEmit: true,
    skipLibCheck: true,
  },
);
const checker = program.getTypeChecker();

/** True when a symbol's own declarations carry a doc comment. */
function commented(symbol) {
  if (symbol.getDocumentationComment(checker).length > 0) return true;
  return (symbol.declarations ?? []).some((d) => {
    // `export type * as X from …`: the comment is the export statement's.
    const node = ts.isNamespaceExport(d) ? d.parent : d;
    return ts.getJSDocCommentsAndTags(node).length > 0 || (node.jsDoc?.length ?? 0) > 0;
  });
}

/**
 * True when the symbol, or one it re-exports on the way to its declaration, has a doc comment
 * (`/** … *\/ export type * as Spec20251125 from …` documents the namespace there).
 */
function documented(symbol) {
  let current = symbol;
  for (let hops = 0; current !== undefined && hops < 16; hops++) {
    if (commented(current)) return true;
    if (!(current.flags & ts.SymbolFlags.Alias)) return false;
    current = checker.getImmediateAliasedSymbol(current);
  }
  return false;
}

const rows = [];
for (const [subpath, source] of entries) {
  const file = program.getSourceFile(source);
  const moduleSymbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
  const names = moduleSymbol === undefined ? [] : checker.getExportsOfModule(moduleSymbol);
  const bare = names.filter((s) => !documented(s)).map((s) => s.getName());
  rows.push({ subpath, count: names.length, bare });
}

const library = (subpath) => !subpath.startsWith('./servers/');
let total = 0;
for (const { subpath, count, bare } of rows) {
  total += count;
  const missing = bare.length > 0 ? `  undocumented: ${bare.join(', ')}` : '';
  if (!check || missing !== '') {
    console.log(`${subpath.padEnd(26)} ${String(count).padStart(4)}${missing}`);
  }
}
console.log(`exports: ${String(total)} names in ${String(rows.length)} subpaths`);
if (check && rows.some((row) => library(row.subpath) && row.bare.length > 0)) {
  console.log(
    'exports: every name a library subpath exports needs a doc comment (or to be internal)',
  );
  process.exit(1);
}
