// `npm run build`, last step: prepares the sql server's embedded database ahead (issue 43 point 7).
// Seeds PGlite with the shop once and writes the gzipped data directory to dist/sql/, under the
// name the server looks for (PGlite's version, the seed and the settings, hashed), so that the
// first `sql` call of `npm start` loads it (about a second) instead of running initdb and the seed.
// Generated, never committed; shipped in the package with the rest of dist/. Without PGlite (an
// optional peer) there is nothing to prepare, and the server seeds on first use as before.
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist/sql');
try {
  createRequire(join(root, 'package.json')).resolve('@electric-sql/pglite');
} catch {
  console.log('sql-snapshot: @electric-sql/pglite is not installed: nothing prepared');
  process.exit(0);
}
const started = performance.now();
const { openDatabase } = await import(join(root, 'dist/esm/servers/sql/server.js'));
mkdirSync(out, { recursive: true });
// With cacheDir, the server writes the snapshot there under its name (or loads the one there).
const database = await openDatabase({ cacheDir: out, preparedDirs: [] });
await database.close();
const made = readdirSync(out).filter((name) => name.endsWith('.tar.gz'));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`sql-snapshot: dist/sql/${made.join(', dist/sql/')} (${seconds} s)`);
