// Where the OAuth client keeps registrations and tokens: in memory, or in one JSON file that
// only its owner can read (mode 0600, written to a temporary file and renamed, so a crash never
// leaves half a file). node:fs is loaded on first use, so browsers can use the memory store.
import type { OAuthStore } from './types.js';

/** A store that lives as long as the process. */
export function memoryStore(): OAuthStore {
  const values = new Map<string, unknown>();
  return {
    get: (key) => Promise.resolve(values.get(key)),
    set: (key, value) => {
      if (value === undefined) values.delete(key);
      else values.set(key, value);
      return Promise.resolve();
    },
  };
}

/**
 * A store in the JSON file at `path` (created with mode 0600, its folder with 0700). Writes are
 * serialized; a file that is not a JSON object is treated as empty and replaced on first write.
 */
export function fileStore(path: string): OAuthStore {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    get: (key) => serial(async () => (await readAll(path))[key]),
    set: (key, value) =>
      serial(async () => {
        const all = await readAll(path);
        const next = Object.fromEntries(Object.entries(all).filter(([name]) => name !== key));
        if (value !== undefined) next[key] = value;
        await writeAll(path, next);
      }),
  };
}

async function readAll(path: string): Promise<Record<string, unknown>> {
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

async function writeAll(path: string, all: Record<string, unknown>): Promise<void> {
  const fs = await import('node:fs/promises');
  const paths = await import('node:path');
  await fs.mkdir(paths.dirname(path), { recursive: true, mode: 0o700 });
  if (Object.keys(all).length === 0) {
    await fs.rm(path, { force: true });
    return;
  }
  const temporary = `${path}.${String(process.pid)}.tmp`;
  await fs.writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(temporary, path);
}
