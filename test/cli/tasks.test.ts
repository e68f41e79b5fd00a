// Tool calls that become tasks, from the CLI: the official server-everything's research task
// (2025-11-25 core tasks, over stdio) runs to its report, with its clarification answered;
// mcpkit's own everything server (2026-07-28 tasks extension, over HTTP) asks its question by
// multi round-trip and then runs as a task; `mcpkit tasks` follows a task made by id.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { tasksClient } from '../../src/ext/tasks/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/index.js';
import { cli, json, spawnCli, waitFor } from './run-cli.js';

const require = createRequire(import.meta.url);
const OFFICIAL = [
  'node',
  join(
    dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
    'dist/index.js',
  ),
  'stdio',
];

describe('the official server-everything research task (2025-11-25, stdio)', () => {
  it('mcpkit call runs simulate-research-query to its report, status messages as progress', async () => {
    const ran = await cli(
      ['call', 'simulate-research-query', '--arg', 'topic=cats', '--', ...OFFICIAL],
      {
        timeoutMs: 30_000,
      },
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('# Research Report: cats');
    // The progress line shows the task's status with its message.
    expect(ran.stderr).toMatch(/task working: .*Gathering sources/);
  });

  it('answers its clarification (input_required) from --answer', async () => {
    const ran = await cli(
      [
        'call',
        'simulate-research-query',
        '--arg',
        'topic=python',
        '--arg',
        'ambiguous=true',
        '--answer',
        'interpretation=programming',
        '--',
        ...OFFICIAL,
      ],
      { timeoutMs: 30_000 },
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('# Research Report: python (programming)');
  });
});

describe("mcpkit's everything over HTTP (2026-07-28 tasks extension)", () => {
  let server: ChildProcess;
  let url = '';
  beforeAll(async () => {
    server = spawnCli(['serve', 'everything', '--http', '127.0.0.1:0']);
    url = (await waitFor(server, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/))[1] ?? '';
  });
  afterAll(async () => {
    server.kill('SIGTERM');
    await once(server, 'close');
  });

  it('mcpkit call asks the question, then follows the task to its summary', async () => {
    const ran = await cli([
      'call',
      url,
      'simulate-research-query',
      '--arg',
      'topic=cats',
      '--answer',
      'depth=detailed',
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('Research summary for "cats" (depth: detailed)');
  });

  it('an ambiguous topic: the running task asks which meaning (input_required), then goes on', async () => {
    const ran = await cli([
      'call',
      url,
      'simulate-research-query',
      '--arg',
      'topic=jaguar',
      '--arg',
      'ambiguous=true',
      '--answer',
      'depth=overview',
      '--answer',
      'interpretation=the animal',
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('Interpretation: the animal.');
    expect(ran.stderr).toContain('"jaguar" has several meanings');
  });

  it('mcpkit call prints the id of the task it started; tasks list lists it over 2025-11-25', async () => {
    const ran = await cli([
      'call',
      url,
      'simulate-research-query',
      '--arg',
      'topic=moths',
      '--answer',
      'depth=overview',
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    const taskId =
      /mcpkit call: task (\S+) \(follow it: mcpkit tasks get\|result\|cancel /.exec(
        ran.stderr,
      )?.[1] ?? '';
    expect(taskId, ran.stderr).not.toBe('');
    const got = await cli(['tasks', 'get', url, taskId, '--json']);
    expect(got.code, got.stderr).toBe(0);
    expect(json(got)).toMatchObject({ taskId, status: 'completed' });
    // No --protocol: the listing is asked for over 2025-11-25, the one revision that has it.
    const listed = await cli(['tasks', 'list', url, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(json(listed)).toEqual(expect.arrayContaining([expect.objectContaining({ taskId })]));
    const modern = await cli(['tasks', 'list', url, '--protocol', '2026-07-28']);
    expect(modern.code).toBe(3);
    expect(modern.stderr).toContain('2026-07-28 has no tasks/list');
    expect(modern.stderr).toContain('mcpkit call prints the id of each task it starts');
  });

  it('tasks list says so when the server offers no 2025-11-25 listing', async () => {
    const pingme = spawnCli(['serve', 'pingme', '--http', '127.0.0.1:0']);
    try {
      const at = (await waitFor(pingme, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/))[1] ?? '';
      const listed = await cli(['tasks', 'list', at]);
      expect(listed.code).toBe(2);
      expect(listed.stderr).toContain('the server keeps no task list');
      expect(listed.stderr).not.toContain('-32601');
    } finally {
      pingme.kill('SIGTERM');
      await once(pingme, 'close');
    }
  });

  it('2025-11-25: call --task runs it as a core task; tasks list shows it', async () => {
    const ran = await cli([
      'call',
      url,
      'simulate-research-query',
      '--arg',
      'topic=bees',
      '--answer',
      'depth=overview',
      '--task',
      '--protocol',
      '2025-11-25',
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('Research summary for "bees"');
    const listed = await cli(['tasks', 'list', url, '--protocol', '2025-11-25', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(json(listed)).toEqual(
      expect.arrayContaining([expect.objectContaining({ status: 'completed' })]),
    );
  });

  it('mcpkit tasks get, result and cancel follow a task by id', async () => {
    const client = new Client(
      { name: 'starter', version: '1.0.0' },
      { onElicit: () => ({ action: 'accept', content: { depth: 'overview' } }) },
    );
    const tasks = client.extend(tasksClient());
    await client.connect(createStreamableHttpClientTransport(url));
    const started = await tasks.callToolAsTask('simulate-research-query', { topic: 'owls' });
    const plain = await tasks.callToolAsTask('echo', { message: 'hi' });
    await client.close();
    if (!('task' in started)) throw new Error('no task was made');
    const { taskId } = started.task;
    const got = await cli(['tasks', 'get', url, taskId, '--json']);
    expect(got.code, got.stderr).toBe(0);
    expect(json(got)).toMatchObject({ taskId });
    const result = await cli(['tasks', 'result', url, taskId, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.stringify(json(result))).toContain('Research summary for \\"owls\\"');
    // echo is no task tool: the server answered it at once.
    expect('result' in plain).toBe(true);
    const cancelled = await cli(['tasks', 'cancel', url, taskId]);
    expect(cancelled.stdout).toBe(`asked the server to cancel task ${taskId}\n`);
    const unknown = await cli(['tasks', 'get', url, 'no-such-task']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown task');
  });
});
