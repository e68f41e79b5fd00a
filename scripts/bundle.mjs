// `npm run build`, second step (after tsc): bundles every JS entry of the package into dist/esm/
// in one esbuild run with code splitting, so that a cold import loads a handful of files instead
// of one per source module (issue #8).
//
// Contracts:
// - The entries are the package.json `exports` defaults and `bin` (the reference servers the CLI
//   loads are exports too: `mcpkit/servers/<name>`), and the scripts of worker threads
//   (`WORKERS`: the code-mode sandbox's, which src/code-mode/worker-pool.ts finds beside itself or,
//   from a chunk, at ../src/code-mode/). Each output path mirrors its source: dist/esm/<path>.js is <path>.ts bundled
//   (dist/esm/src/server/index.js is src/server/index.ts), the same layout as tsc's dist/.
// - One run, `splitting: true`: code shared by several entries lives in exactly one chunk
//   (dist/esm/chunks/), so a class is the same object whichever subpath loaded it
//   (`instanceof JsonRpcError` holds across `mcpkit/jsonrpc` and `mcpkit/server`).
// - Every bare import stays external (`packages: 'external'`): Node builtins and the optional
//   peers (zod, pg, ...) are loaded at run time, never copied in. The build fails when a bundle
//   imports any other package, since the package has no runtime dependencies.
// - tsc emits only declarations (dist/src/**/*.d.ts, the `types` of `exports`); what loads is here.
// - The CLI keeps its shebang and is executable. Linked source maps point at the .ts sources;
//   Node reads them only under --enable-source-maps.
import { readFileSync, chmodSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist/esm');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `dist/esm/<path>.js` (as package.json spells it) → `<path>`, the source path without `.ts`. */
function sourceOf(target) {
  const match = /^(?:\.\/)?dist\/esm\/(.+)\.js$/.exec(target);
  if (match === null) throw new Error(`bundle: ${target} is not a dist/esm/ path`);
  return match[1];
}

const targets = [
  ...Object.values(pkg.exports)
    .map((entry) => (typeof entry === 'string' ? entry : entry.default))
    .filter((target) => target.endsWith('.js')),
  ...Object.values(pkg.bin),
];
/** Scripts started as worker threads: entries of their own, at their source's path. */
const WORKERS = ['src/code-mode/sandbox-worker'];
const entryPoints = Object.fromEntries(
  [...targets.map(sourceOf), ...WORKERS].map((path) => [path, join(root, `${path}.ts`)]),
);

const result = await build({
  absWorkingDir: root,
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
});

// Nothing but Node builtins and declared peers may stay external: mcpkit has no dependencies.
const allowed = new Set([...builtinModules, ...Object.keys(pkg.peerDependencies ?? {})]);
const packageOf = (path) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  for (const { path, external } of output.imports) {
    if (external && !path.startsWith('node:') && !allowed.has(packageOf(path))) {
      throw new Error(`bundle: ${file} imports ${path}, neither a Node builtin nor a peer`);
    }
  }
}

// npm marks bins executable on install; in the repository they are executable too.
for (const target of Object.values(pkg.bin)) chmodSync(join(root, target), 0o755);
