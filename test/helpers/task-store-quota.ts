// The per-owner quota every TaskStore keeps (src/server/tasks/store.ts, `maxTasksPerOwner`),
// checked the same way on each store: an owner at its quota makes room by losing its own oldest
// finished task; with none finished, its next task is refused (-32603, the limit named) and
// leaves no trace; other owners are untouched throughout.
import { expect } from 'vitest';
import type { TaskRecord, TaskStore } from '../../src/ext/tasks/index.js';

/** A working task of `owner`, made `at` (ms since the epoch), expiring in a minute. */
export function quotaRecord(taskId: string, owner: string, at: number): TaskRecord {
  const when = new Date(at).toISOString();
  return {
    taskId,
    status: 'working',
    createdAt: when,
    lastUpdatedAt: when,
    ttlMs: 60_000,
    owner,
    expiresAt: Date.now() + 60_000,
  };
}

/**
 * Runs the quota scenario on `store`, made with `maxTasksPerOwner: quota` (3 or more); `tag`
 * keeps its task ids apart from other runs on a shared store.
 */
export async function expectPerOwnerQuota(
  store: TaskStore,
  quota: number,
  tag: string,
): Promise<void> {
  const t0 = Date.now() - 10_000;
  const alice = quotaRecord(`${tag}-alice`, `${tag}-alice`, t0);
  await store.create({ ...alice, status: 'completed', result: { content: [] } });
  const bob = (i: number) => quotaRecord(`${tag}-bob-${String(i)}`, `${tag}-bob`, t0 + 1 + i);
  for (let i = 0; i < quota; i++) await store.create(bob(i));
  // Bob's second task finishes: at the quota, his next one removes it (his oldest finished).
  await store.put({ ...bob(1), status: 'completed', result: { content: [] } });
  await store.create(bob(quota));
  expect(await store.get(bob(1).taskId)).toBeUndefined();
  expect(await store.get(bob(0).taskId)).toMatchObject({ status: 'working' });
  // All of bob's are working now: the next is refused, clearly, and leaves nothing behind.
  const refused = store.create(bob(quota + 1));
  await expect(refused).rejects.toMatchObject({
    code: -32603,
    message: expect.stringMatching(new RegExp(`${String(quota)} tasks`)) as unknown,
  });
  expect(await store.get(bob(quota + 1).taskId)).toBeUndefined();
  expect((await store.list(`${tag}-bob`)).map((r) => r.taskId)).toEqual([
    bob(0).taskId,
    ...Array.from({ length: quota - 2 }, (_, i) => bob(i + 2).taskId),
    bob(quota).taskId,
  ]);
  // Alice lost nothing and still makes tasks.
  expect(await store.get(alice.taskId)).toMatchObject({ status: 'completed' });
  await store.create(quotaRecord(`${tag}-alice-2`, `${tag}-alice`, t0 + 100));
  expect((await store.list(`${tag}-alice`)).map((r) => r.taskId)).toEqual([
    alice.taskId,
    `${tag}-alice-2`,
  ]);
}
