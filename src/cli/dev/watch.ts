// What `mcpkit dev` watches: the module's folder and every folder below it (node_modules,
// hidden folders and build output left out), and the folders given with --watch. A burst of
// events (an editor's save is several) is one change.
import type { FSWatcher } from 'node:fs';
import { watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders never watched. */
const SKIPPED = new Set(['node_modules', 'dist', 'build', 'coverage', 'out']);
/** Files whose change reloads: modules and JSON. */
const SOURCE = /\.(?:[cm]?[jt]sx?|json)$/;
/** The most folders watched (each costs an inotify watch). */
const MAX_FOLDERS = 2000;
/** How long a burst of events may last before it counts as one change. */
const SETTLE_MS = 100;

/** Watches the folders under `roots`; calls `onChange` with a changed file after a burst. */
export async function watchSources(
  roots: readonly string[],
  onChange: (file: string) => void,
): Promise<{ close(): void; folders: number }> {
  const watchers = new Map<string, FSWatcher>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let changed = '';
  const add = async (folder: string): Promise<void> => {
    if (watchers.has(folder) || watchers.size >= MAX_FOLDERS) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, (_event, name) => {
        if (name === null) return;
        const path = join(folder, name);
        if (SOURCE.test(path)) {
          changed = path;
          clearTimeout(timer);
          timer = setTimeout(() => {
            onChange(changed);
          }, SETTLE_MS);
        } else if (!skipped(name)) {
          // A new folder: watched from now on.
          void isFolder(path).then((yes) => (yes ? add(path) : undefined));
        }
      });
    } catch {
      return;
    }
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(folder);
    });
    watchers.set(folder, watcher);
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory() && !skipped(entry.name)) await add(join(folder, entry.name));
    }
  };
  for (const root of roots) await add(root);
  return {
    folders: watchers.size,
    close() {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

function skipped(name: string): boolean {
  return SKIPPED.has(name) || name.startsWith('.');
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}
