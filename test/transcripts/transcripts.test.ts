// Golden wire transcripts: each test/transcripts/*.txt holds a header naming what it pins, then
// `>>` client lines and the `<<` server lines expected in reply, exactly. UPDATE=1 rewrites the
// `<<` lines from what the server sends now (review the diff before committing it).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/jsonrpc/message.js';
import type { Receiver } from '../../src/jsonrpc/transport.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import type { Transcript } from '../../src/cli/transcript.js';
import { parseTranscript as parse } from '../../src/cli/transcript.js';
import { assertValidMessage } from '../helpers/spec-schema.js';
import { createSumServer } from '../helpers/sum-server.js';

const DIR = new URL('./', import.meta.url);
const files = readdirSync(DIR).filter((f) => f.endsWith('.txt'));

/** Sends each client line and collects the server's lines until it has answered (or 50 ms of quiet). */
async function replay(transcript: Transcript): Promise<string[][]> {
  const [client, serverEnd] = createMemoryPair();
  await createSumServer().connect(serverEnd);
  const received: Message[] = [];
  let wake: (() => void) | undefined;
  const receiver: Receiver = {
    message: (m) => {
      received.push(m);
      wake?.();
    },
    closed: () => undefined,
  };
  await client.start(receiver);
  const out: string[][] = [];
  for (const step of transcript.steps) {
    const message = JSON.parse(step.send) as Message;
    received.length = 0;
    await client.send(message);
    const answered = () => 'id' in message && received.some((m) => !('method' in m) && m.id === message.id);
    const deadline = Date.now() + 2000;
    while (!answered() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 'id' in message ? 100 : 20);
      });
      if (!('id' in message)) break;
    }
    out.push(received.map((m) => JSON.stringify(m)));
  }
  await client.close();
  return out;
}

describe('golden transcripts', () => {
  it('has transcripts to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(file, async () => {
      const path = new URL(file, DIR);
      const transcript = parse(readFileSync(path, 'utf8'));
      const actual = await replay(transcript);
      if (process.env['UPDATE'] === '1') {
        const lines = [...transcript.header, ''];
        transcript.steps.forEach((step, i) => {
          lines.push(`>> ${step.send}`, ...(actual[i] ?? []).map((l) => `<< ${l}`));
        });
        writeFileSync(path, `${lines.join('\n')}\n`);
        return;
      }
      transcript.steps.forEach((step, i) => {
        const got = (actual[i] ?? []).map((l) => JSON.parse(l) as unknown);
        expect(got, `reply to ${step.send}`).toEqual(step.expect.map((l) => JSON.parse(l) as unknown));
        for (const line of got) assertValidMessage(transcript.revision as ProtocolRevision, line, { method: JSON.parse(step.send).method });
      });
    });
  }
});
