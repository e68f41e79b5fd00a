// The inspector page's files: the prebuilt front end in <package root>/dist/inspector (vite
// build of inspector-ui/), served with their content types, never outside that folder. When it
// is missing, a small page says how to build it; the API works either way.
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json named "mcpkit", walking up from this module. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string | undefined {
  let dir = dirname(from);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
        if (parsed.name === 'mcpkit') return dir;
      } catch {
        // Not a readable manifest: keep walking.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The default folder of the built page. */
export function defaultUiDir(): string | undefined {
  const root = packageRoot();
  return root === undefined ? undefined : join(root, 'dist', 'inspector');
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The content type of a file, by its extension. */
export function contentType(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** What the page says when the front end has not been built. */
const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcpkit inspect</title></head>
<body><main><h1>mcpkit inspect</h1>
<p>The inspector's page is not built. Run <code>npm run build</code> in the mcpkit checkout
(it writes <code>dist/inspector/</code>), then reload. The inspector's API works meanwhile.</p>
</main></body></html>
`;

/**
 * The file of `pathname` inside `root`, or undefined when the path is not a plain relative
 * path inside it (`..`, a NUL, a backslash, an encoded separator): traversal is refused, not
 * resolved.
 */
export function filePath(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const parts = decoded.split('/').filter((part) => part !== '');
  if (parts.some((part) => part === '..' || part === '.')) return undefined;
  const relative = parts.length === 0 ? 'index.html' : parts.join('/');
  const base = resolve(root);
  const full = resolve(base, relative);
  return full.startsWith(base + sep) ? full : undefined;
}

/** Serves `pathname` from `root` (index.html for `/`). */
export async function serveStatic(
  res: ServerResponse,
  root: string | undefined,
  request: { pathname: string; headers?: Readonly<Record<string, string>> },
): Promise<void> {
  const { pathname, headers: extraHeaders = {} } = request;
  const sendText = (status: number, text: string): void => {
    res.writeHead(status, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      ...extraHeaders,
    });
    res.end(`${text}\n`);
  };
  const index = pathname === '/' || pathname === '/index.html';
  if (root === undefined || !existsSync(join(root, 'index.html'))) {
    if (!index) {
      sendText(404, 'not found (the inspector page is not built)');
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      ...extraHeaders,
    });
    res.end(NOT_BUILT);
    return;
  }
  const path = filePath(root, pathname);
  if (path === undefined) {
    sendText(400, 'bad path');
    return;
  }
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile()) {
    sendText(404, 'not found');
    return;
  }
  const body = await readFile(path);
  // Vite names built assets by content hash: they never change. Anything else is revalidated.
  const hashed = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(path);
  res.writeHead(200, {
    'Content-Type': contentType(path),
    'Content-Length': String(body.length),
    'Cache-Control': hashed ? 'private, max-age=31536000, immutable' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ...extraHeaders,
  });
  res.end(body);
}
