import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStore, memoryStore } from './store.js';

describe('fileStore', () => {
  it('keeps JSON values in a file only its owner can read, in a folder only they can enter', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'mcpkit-store-')), 'nested');
    const path = join(folder, 'state.json');
    const store = fileStore(path);
    await store.set('tokens a', { access_token: 'x' });
    await store.set('client b', { client_id: 'c' });
    expect(await fileStore(path).get('tokens a')).toEqual({ access_token: 'x' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    await store.set('tokens a', undefined);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ 'client b': { client_id: 'c' } });
  });

  it('serializes writes: concurrent sets all land', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mcpkit-store-')), 'state.json');
    const store = fileStore(path);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${String(i)}`, i)));
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')))).toHaveLength(20);
  });

  it('treats a file that is not a JSON object as empty, and replaces it on write', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mcpkit-store-')), 'state.json');
    writeFileSync(path, 'not json');
    const store = fileStore(path);
    expect(await store.get('k')).toBeUndefined();
    await store.set('k', 1);
    expect(await store.get('k')).toBe(1);
  });
});

describe('memoryStore', () => {
  it('stores and deletes', async () => {
    const store = memoryStore();
    await store.set('k', { a: 1 });
    expect(await store.get('k')).toEqual({ a: 1 });
    await store.set('k', undefined);
    expect(await store.get('k')).toBeUndefined();
  });
});
