// MemoryTaskStore's limits: the per-owner quota every store keeps, and its own total, which
// takes room from the owner holding the most tasks, never from the others.
import { describe, expect, it } from 'vitest';
import { expectPerOwnerQuota, quotaRecord } from '../../../../test/helpers/task-store-quota.js';
import { MemoryTaskStore } from './store.js';

describe('MemoryTaskStore limits', () => {
  it('keeps maxTasksPerOwner per owner: its own oldest finished task goes, else it is refused', async () => {
    await expectPerOwnerQuota(new MemoryTaskStore({ maxTasksPerOwner: 4 }), 4, 'mem');
  });

  it("at maxTasks, the owner holding the most loses its oldest finished task, not another's", async () => {
    const store = new MemoryTaskStore({ maxTasks: 10 });
    const t0 = Date.now();
    await store.create({ ...quotaRecord('alice-1', 'alice', t0), status: 'completed' });
    for (let i = 0; i < 20; i++) {
      const record = quotaRecord(`bob-${String(i)}`, 'bob', t0 + 1 + i);
      await store.create(record);
      await store.put({ ...record, status: 'completed' });
    }
    expect(await store.get('alice-1')).toMatchObject({ owner: 'alice' });
    expect((await store.list('bob')).map((r) => r.taskId)).toEqual(
      Array.from({ length: 9 }, (_, i) => `bob-${String(i + 11)}`),
    );
    // Full of working tasks: refused, whoever asks.
    const full = new MemoryTaskStore({ maxTasks: 2 });
    await full.create(quotaRecord('w-1', 'bob', t0));
    await full.create(quotaRecord('w-2', 'carol', t0));
    await expect(full.create(quotaRecord('w-3', 'bob', t0))).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/full/) as unknown,
    });
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => new MemoryTaskStore({ maxTasks: 0 })).toThrow(TypeError);
    expect(() => new MemoryTaskStore({ maxTasksPerOwner: 1.5 })).toThrow(TypeError);
  });
});
