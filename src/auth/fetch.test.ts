import { describe, expect, it } from 'vitest';
import { AuthServerError, Reachability, authHttp, fetchAnswer } from './fetch.js';

describe('Reachability', () => {
  it('probes before the first use, then answers from the last use without probing', async () => {
    let probes = 0;
    const reach = new Reachability(() => {
      probes++;
      return Promise.resolve();
    });
    await reach.health();
    await reach.health();
    expect(probes).toBe(1);
    reach.ok();
    await reach.health();
    expect(probes).toBe(1);
  });

  it('after a failure: rejects with it at once and probes behind it, one probe at a time', async () => {
    let release: () => void = () => {};
    let probes = 0;
    const reach = new Reachability(() => {
      probes++;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    reach.ok();
    reach.failed(new Error('x did not answer within 300 ms'));
    await expect(reach.health()).rejects.toThrow('did not answer within 300 ms');
    await expect(reach.health()).rejects.toThrow('did not answer within 300 ms');
    expect(probes).toBe(1);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await reach.health();
  });
});

describe('fetchAnswer', () => {
  it('names the URL and the kind of failure', async () => {
    const http = authHttp({ fetch: () => Promise.reject(new TypeError('fetch failed')) }, 't');
    const failure = await fetchAnswer(http, 'http://127.0.0.1:9/x').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AuthServerError);
    expect(failure).toMatchObject({ failure: 'unreachable' });
    expect((failure as Error).message).toContain('cannot reach http://127.0.0.1:9/x');
    const huge = authHttp(
      { fetch: () => Promise.resolve(new Response('x'.repeat(2 * 1024 * 1024))) },
      't',
    );
    await expect(fetchAnswer(huge, 'http://a/b')).rejects.toMatchObject({ failure: 'too_large' });
  });

  it('refuses a time limit that is not a positive number', () => {
    expect(() => authHttp({ timeoutMs: 0 }, 'createJwtVerifier')).toThrow(
      'createJwtVerifier: timeoutMs must be a positive number, got 0',
    );
  });
});
