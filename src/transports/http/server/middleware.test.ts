// compose and chain: order, short-circuits, replies changed on their way out, and a chain built
// once per `next`.
import { describe, expect, it } from 'vitest';
import type { Answer, HttpExchange, HttpReply } from './exchange.js';
import { emptyReply } from './exchange.js';
import type { HttpHandle, HttpMiddleware } from './middleware.js';
import { chain, compose } from './middleware.js';

function exchange(url = '/mcp'): HttpExchange {
  return {
    method: 'GET',
    url,
    headers: {},
    readBody() {
      throw new Error('not read here');
    },
    onClose: () => () => undefined,
  };
}

/** Middleware that logs `name` on the way in and out. */
function logging(log: string[], name: string): HttpMiddleware {
  return (ex, answer, next) => {
    log.push(`${name} in`);
    next(ex, (reply) => {
      log.push(`${name} out`);
      answer(reply);
    });
  };
}

function run(handle: HttpHandle, ex = exchange()): HttpReply | undefined {
  let got: HttpReply | undefined;
  handle(ex, (reply) => {
    got = reply;
  });
  return got;
}

const endpoint =
  (log: string[]): HttpHandle =>
  (_ex, answer) => {
    log.push('endpoint');
    answer(emptyReply(200));
  };

describe('compose', () => {
  it('runs middleware in the order given; the first sees the reply last', () => {
    const log: string[] = [];
    const both = compose(logging(log, 'a'), logging(log, 'b'));
    const reply = run((ex, answer) => {
      both(ex, answer, endpoint(log));
    });
    expect(reply?.status).toBe(200);
    expect(log).toEqual(['a in', 'b in', 'endpoint', 'b out', 'a out']);
  });

  it('lets a middleware answer without calling next', () => {
    const log: string[] = [];
    const refuse: HttpMiddleware = (_ex, answer) => {
      answer(emptyReply(401));
    };
    const reply = run(chain([logging(log, 'a'), refuse, logging(log, 'b')], endpoint(log)));
    expect(reply?.status).toBe(401);
    expect(log).toEqual(['a in', 'a out']);
  });

  it('lets a middleware change the reply and set exchange.auth for what follows', () => {
    const stamp: HttpMiddleware = (ex, answer, next) => {
      ex.auth = { who: 'me' };
      next(ex, (reply) => {
        answer({ ...reply, headers: { ...reply.headers, 'x-request-id': '7' } });
      });
    };
    const seen: unknown[] = [];
    const reply = run(
      chain([compose(stamp)], (ex, answer: Answer) => {
        seen.push(ex.auth);
        answer(emptyReply(204));
      }),
    );
    expect(reply).toEqual({ status: 204, headers: { 'x-request-id': '7' }, body: null });
    expect(seen).toEqual([{ who: 'me' }]);
  });

  it('is a pass-through with no middleware, and answers later when a step waits', async () => {
    const log: string[] = [];
    expect(run(chain([compose()], endpoint(log)))?.status).toBe(200);
    const wait: HttpMiddleware = (ex, answer, next) => {
      setTimeout(() => {
        next(ex, answer);
      }, 1);
    };
    const reply = await new Promise<HttpReply>((resolve) => {
      chain([compose(wait, logging(log, 'a'))], endpoint(log))(exchange(), resolve);
    });
    expect(reply.status).toBe(200);
  });

  it('builds its chain once for the same next', () => {
    let built = 0;
    const counting: HttpMiddleware = (ex, answer, next) => {
      next(ex, answer);
    };
    const composed = compose(counting, counting);
    const next: HttpHandle = (_ex, answer) => {
      built++;
      answer(emptyReply(200));
    };
    const first = run((ex, answer) => {
      composed(ex, answer, next);
    });
    const second = run((ex, answer) => {
      composed(ex, answer, next);
    });
    expect([first?.status, second?.status, built]).toEqual([200, 200, 2]);
    // A different next gets its own chain.
    const other = run((ex, answer) => {
      composed(ex, answer, (_e, a) => {
        a(emptyReply(202));
      });
    });
    expect(other?.status).toBe(202);
  });

  it('refuses what is not a function', () => {
    expect(() => compose('nope' as unknown as HttpMiddleware)).toThrow(TypeError);
  });
});
