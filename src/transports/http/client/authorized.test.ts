import { describe, expect, it } from 'vitest';
import type { HttpAuthorizer, RefusedRequest } from '../../../protocol/auth.js';
import { authorizedFetch } from './authorized.js';

/** A fetch that answers from `statuses` in turn and records the Authorization it got. */
function scripted(statuses: number[]) {
  const seen: (string | null)[] = [];
  const fetchFn = (_url: string, init: RequestInit) => {
    seen.push(new Headers(init.headers).get('authorization'));
    const status = statuses.shift() ?? 200;
    return Promise.resolve(
      new Response('{}', {
        status,
        headers:
          status === 401 ? { 'www-authenticate': 'Bearer scope="a"', 'dpop-nonce': 'n1' } : {},
      }),
    );
  };
  return { fetchFn, seen };
}

function authorizer(answers: boolean[]) {
  const refusals: RefusedRequest[] = [];
  let token = 0;
  const auth: HttpAuthorizer = {
    headers: () => Promise.resolve({ authorization: `Bearer t${String(token)}` }),
    refused: (refusal) => {
      refusals.push(refusal);
      token++;
      return Promise.resolve(answers.shift() ?? false);
    },
  };
  return { auth, refusals };
}

describe('authorizedFetch', () => {
  it('adds the headers, and after a refusal the authorizer handles sends again with new ones', async () => {
    const { fetchFn, seen } = scripted([401, 200]);
    const { auth, refusals } = authorizer([true]);
    const response = await authorizedFetch(fetchFn, auth)('http://h/mcp', {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual(['Bearer t0', 'Bearer t1']);
    expect(refusals).toEqual([
      {
        url: 'http://h/mcp',
        method: 'POST',
        status: 401,
        attempt: 0,
        wwwAuthenticate: 'Bearer scope="a"',
        dpopNonce: 'n1',
      },
    ]);
  });

  it('returns the refusal when the authorizer gives up', async () => {
    const { fetchFn, seen } = scripted([403]);
    const { auth } = authorizer([false]);
    const response = await authorizedFetch(fetchFn, auth)('http://h/mcp', { method: 'GET' });
    expect(response.status).toBe(403);
    expect(seen).toHaveLength(1);
  });

  it('sends one request at most 25 times, whatever the authorizer says', async () => {
    const { fetchFn, seen } = scripted(Array.from({ length: 30 }, () => 401));
    const { auth } = authorizer(Array.from({ length: 30 }, () => true));
    const response = await authorizedFetch(fetchFn, auth)('http://h/mcp', {
      method: 'POST',
      body: 'x',
    });
    expect(response.status).toBe(401);
    expect(seen).toHaveLength(25);
  });

  it('never sends a streamed body twice', async () => {
    const { fetchFn, seen } = scripted([401]);
    const { auth, refusals } = authorizer([true]);
    const body = new ReadableStream({
      start: (c) => {
        c.close();
      },
    });
    const response = await authorizedFetch(fetchFn, auth)('http://h/mcp', { method: 'POST', body });
    expect(response.status).toBe(401);
    expect(seen).toHaveLength(1);
    expect(refusals).toHaveLength(0);
  });

  it('rejects with what the authorizer throws', async () => {
    const { fetchFn } = scripted([401]);
    const failing: HttpAuthorizer = {
      headers: () => Promise.resolve({}),
      refused: () => Promise.reject(new Error('the flow failed')),
    };
    await expect(
      authorizedFetch(fetchFn, failing)('http://h/mcp', { method: 'POST', body: '{}' }),
    ).rejects.toThrow('the flow failed');
  });
});
