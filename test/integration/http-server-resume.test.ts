// Resumability of legacy session streams (spec 2025-11-25 basic/transports#resumability-and-redelivery):
// priming events, streams closed on purpose or lost, and GET with Last-Event-ID. Both faces.
import { afterEach, describe, expect, it } from 'vitest';
import type { Face } from './http-server-harness.js';
import { MemoryEventStore } from '../../src/transports/http/server/event-store.js';
import type { StreamableHttpOptions } from '../../src/transports/http/server/options.js';
import {
  FACES,
  allEvents,
  call,
  createTestServer,
  events,
  eventsUntil,
  messages,
  openSession,
  sessionRequest,
  startFace,
} from './http-server-harness.js';

/** Resumes a stream of `session` with a GET naming `lastEventId`. */
function resume(face: Face, session: string, lastEventId: string): Promise<Response> {
  return face.request({
    method: 'GET',
    headers: {
      'mcp-session-id': session,
      accept: 'text/event-stream',
      'last-event-id': lastEventId,
    },
  });
}

const faces: Face[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((f) => f.close()));
});

describe.each(FACES)('Streamable HTTP, resumption (%s)', (kind) => {
  async function start(options: StreamableHttpOptions = {}) {
    const { server, probes } = createTestServer();
    const face = await startFace(kind, server, options);
    faces.push(face);
    return { face, probes };
  }

  it('resumes a stream the tool closed on purpose: the rest arrives once, on GET', async () => {
    const { face } = await start();
    const session = await openSession(face);
    const res = await face.request(
      sessionRequest(session, call('test_reconnection', {}, 11, { progressToken: 't' })),
    );
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const first = await allEvents(res);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ data: '', retry: 1000 });
    const resumed = await resume(face, session, first[0]!.id!);
    expect(resumed.status).toBe(200);
    const rest = await allEvents(resumed);
    expect(messages(rest).map((m) => m.method ?? m.id)).toEqual(['notifications/progress', 11]);
    expect(messages(rest)[1]).toMatchObject({ result: { content: [{ text: 'reconnected' }] } });
    // Resuming again from the last id replays nothing more.
    const again = await resume(face, session, rest.at(-1)!.id!);
    expect(messages(await allEvents(again))).toEqual([]);
  });

  it('keeps serving a request whose connection died, and replays its result after Last-Event-ID', async () => {
    const { face, probes } = await start();
    const session = await openSession(face);
    const abort = new AbortController();
    const res = await face.request({
      ...sessionRequest(session, call('slow', {}, 21, { progressToken: 's' })),
      signal: abort.signal,
    });
    const stream = events(res);
    const seen = await eventsUntil(stream, (e) => e.data !== '');
    expect(messages(seen)[0]).toMatchObject({ method: 'notifications/progress' });
    const lastId = seen.at(-1)!.id!;
    abort.abort();
    await stream.return(undefined);
    await probes.waiting;
    probes.release();
    // The handler ran on; its result waits in the event store.
    const resumed = await resume(face, session, lastId);
    const rest = messages(await allEvents(resumed));
    expect(rest.filter((m) => m.id === 21)).toHaveLength(1);
    expect(rest.at(-1)).toMatchObject({ id: 21, result: { content: [{ text: 'slow done' }] } });
  });

  it("keeps a session's stream replayable while another session floods the event store", async () => {
    const { face } = await start({ eventStore: new MemoryEventStore({ maxEvents: 30 }) });
    const quiet = await openSession(face);
    const busy = await openSession(face);
    const progress = (session: string, id: number) =>
      face.request(sessionRequest(session, call('progress', {}, id, { progressToken: id })));
    const mine = await allEvents(await progress(quiet, 1));
    expect(messages(mine).map((m) => m.method ?? m.id)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      1,
    ]);
    // 10 streams of 5 events each (priming, 3 progress, the response): more than the store holds.
    for (let id = 100; id < 110; id++) await allEvents(await progress(busy, id));
    const resumed = await resume(face, quiet, mine[0]!.id!);
    expect(resumed.status).toBe(200);
    expect(messages(await allEvents(resumed))).toEqual(messages(mine));
  });

  it("refuses an unknown Last-Event-ID, and another session's", async () => {
    const { face } = await start();
    const mine = await openSession(face);
    const theirs = await openSession(face);
    const res = await face.request(sessionRequest(theirs, call('test_reconnection', {}, 1)));
    const [priming] = await allEvents(res);
    const unknown = await resume(face, mine, '999999');
    expect(unknown.status).toBe(400);
    await unknown.text();
    const foreign = await resume(face, mine, priming!.id!);
    expect(foreign.status).toBe(400);
    await foreign.text();
  });
});
