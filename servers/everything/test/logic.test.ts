import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  LOG_LEVELS,
  allowedEnv,
  annotatedMessage,
  completeCity,
  completeDynamicId,
  completeState,
  describeSum,
  dynamicBlob,
  dynamicText,
  gzipBytes,
  parseDynamicId,
  pickLevel,
  researchStages,
  researchSummary,
  runLongOperation,
  sleep,
  weatherAt,
} from '../logic.js';

describe('everything logic', () => {
  it('describes sums', () => {
    expect(describeSum(7, 5)).toBe('The sum of 7 and 5 is 12.');
    expect(describeSum(-1.5, 0.5)).toBe('The sum of -1.5 and 0.5 is -1.');
  });

  it('shows only allow-listed variables that are set', () => {
    const env = { HOME: '/root', SECRET_TOKEN: 'x', LANG: 'C' };
    expect(allowedEnv(env, [])).toEqual({});
    expect(allowedEnv(env, ['LANG', 'MISSING'])).toEqual({ LANG: 'C' });
    expect(allowedEnv(env, ['toString', 'constructor'])).toEqual({});
  });

  it('returns weather without sharing its table', () => {
    const weather = weatherAt('Chicago');
    weather.temperature = 99;
    expect(weatherAt('Chicago').temperature).not.toBe(99);
    expect(weatherAt('New York')).toMatchObject({ conditions: expect.any(String) });
  });

  it('annotates messages by type', () => {
    expect(annotatedMessage('error').annotations).toEqual({
      priority: 1,
      audience: ['user', 'assistant'],
    });
    expect(annotatedMessage('debug').annotations.audience).toEqual(['assistant']);
  });

  it('parses dynamic ids and completes them', () => {
    expect(parseDynamicId('1')).toBe(1);
    expect(parseDynamicId('100')).toBe(100);
    for (const bad of ['0', '101', '01', '1.5', 'x', '', undefined, ['1']]) {
      expect(parseDynamicId(bad)).toBeUndefined();
    }
    expect(completeDynamicId('9')).toEqual([
      '9',
      '90',
      '91',
      '92',
      '93',
      '94',
      '95',
      '96',
      '97',
      '98',
      '99',
    ]);
    expect(completeDynamicId('')).toHaveLength(100);
  });

  it('derives dynamic content from id and revision, deterministically', () => {
    expect(dynamicText(3, 2)).toBe('Dynamic text resource 3, revision 2.');
    expect(dynamicBlob(3, 1)).toEqual(dynamicBlob(3, 1));
    expect(dynamicBlob(3, 1)).not.toEqual(dynamicBlob(3, 2));
    expect(dynamicBlob(3, 1)).toHaveLength(16);
  });

  it('completes cities and the states of the chosen city', () => {
    expect(completeCity('s')).toEqual(['Seattle', 'Springfield']);
    expect(completeState('', 'Springfield')).toEqual(['IL', 'MA', 'MO', 'OR']);
    expect(completeState('m', 'Springfield')).toEqual(['MA', 'MO']);
    expect(completeState('c', undefined)).toEqual(['CA', 'CO']);
  });

  it('gzips round-trip and stably', async () => {
    const input = new TextEncoder().encode('hello hello hello hello');
    const once = await gzipBytes(input);
    expect(gunzipSync(once).toString()).toBe('hello hello hello hello');
    expect(await gzipBytes(input)).toEqual(once);
  });

  it('picks every level across [0, 1)', () => {
    expect(pickLevel(0)).toBe('debug');
    expect(pickLevel(0.999)).toBe('emergency');
    expect(new Set([0, 0.13, 0.26, 0.38, 0.51, 0.63, 0.76, 0.9].map(pickLevel)).size).toBe(
      LOG_LEVELS.length,
    );
  });

  it('summarizes research with its stages', () => {
    expect(researchStages('detailed')).toContain('Reading 8 sources');
    const summary = researchSummary('tides', { depth: 'exhaustive', focus: 'moon' });
    expect(summary).toMatch(/^Research summary for "tides" \(depth: exhaustive, focus: moon\)/);
    expect(summary).toMatch(/Reading 20 sources: done/);
  });
});

describe('runLongOperation', () => {
  it('reports every step, in order', async () => {
    const seen: string[] = [];
    const text = await runLongOperation(
      { durationMs: 5, steps: 5 },
      new AbortController().signal,
      (done, total, message) => {
        seen.push(`${String(done)}/${String(total)} ${message}`);
        return Promise.resolve();
      },
    );
    expect(seen).toEqual([
      '1/5 Step 1 of 5',
      '2/5 Step 2 of 5',
      '3/5 Step 3 of 5',
      '4/5 Step 4 of 5',
      '5/5 Step 5 of 5',
    ]);
    expect(text).toBe('Long running operation completed: 0.005 seconds, 5 steps.');
  });

  it('stops promptly when aborted, saying how far it got', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = runLongOperation({ durationMs: 60_000, steps: 2 }, controller.signal, () =>
      Promise.resolve(),
    );
    setTimeout(() => {
      controller.abort();
    }, 5);
    await expect(run).rejects.toThrow('operation cancelled after 0 of 2 steps');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('sleep rejects at once on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(sleep(10_000, controller.signal)).rejects.toThrow('gone');
  });
});
