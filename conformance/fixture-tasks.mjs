// Task tools of the conformance fixture (the tasks extension, SEP-2663, on 2026-07-28): what the
// suite's tasks-* scenarios call. Built only from mcpkit's public entries.
import { JsonRpcError } from 'mcpkit/server';
import { object } from './fixture-asks.mjs';

/** Sleeps `ms`, or rejects when `signal` aborts first. */
function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * Registers greet, slow_compute, failing_job, protocol_error_job, confirm_delete, multi_input and
 * test_tool_with_task.
 */
export function registerTaskTools(server) {
  server.tool(
    {
      name: 'greet',
      description: 'Greets someone (never a task).',
      inputSchema: object({ name: { type: 'string' } }, []),
    },
    ({ name }) => `Hello, ${name ?? 'World'}!`,
  );
  server.tool(
    {
      name: 'slow_compute',
      description: 'Sleeps for `seconds`, then answers (a task).',
      inputSchema: object({ seconds: { type: 'number' }, label: { type: 'string' } }, []),
      task: 'optional',
    },
    async ({ seconds = 1, label = 'compute' }, ctx) => {
      await wait(seconds * 1000, ctx.signal);
      return `${label}: done after ${seconds} s`;
    },
  );
  server.tool(
    {
      name: 'failing_job',
      description: 'Fails as a tool (isError) after a second (a task, required).',
      task: 'required',
    },
    async (_args, ctx) => {
      await wait(1000, ctx.signal);
      throw new Error('the job failed');
    },
  );
  server.tool(
    {
      name: 'protocol_error_job',
      description: 'Fails with a protocol error (a task).',
      task: 'optional',
    },
    async (_args, ctx) => {
      await wait(300, ctx.signal);
      throw new JsonRpcError(-32603, 'internal failure in protocol_error_job');
    },
  );
  server.tool(
    {
      name: 'confirm_delete',
      description: 'Asks to confirm, then deletes (a task that needs input).',
      inputSchema: object({ filename: { type: 'string' } }, []),
      task: 'optional',
    },
    async ({ filename = 'file' }, ctx) => {
      const answer = await ctx.elicit({
        message: `Delete ${filename}?`,
        requestedSchema: object({ confirm: { type: 'boolean' } }, ['confirm']),
      });
      return answer.action === 'accept' && answer.content?.confirm === true
        ? `deleted ${filename}`
        : `kept ${filename}`;
    },
  );
  server.tool(
    {
      name: 'multi_input',
      description: 'Asks two questions at once (a task that needs input).',
      task: 'optional',
    },
    async (_args, ctx) => {
      const schema = object({ value: { type: 'string' } }, []);
      const [first, second] = await Promise.all([
        ctx.elicit({ message: 'First value?', requestedSchema: schema }),
        ctx.elicit({ message: 'Second value?', requestedSchema: schema }),
      ]);
      return `got ${first.action} and ${second.action}`;
    },
  );
  server.tool(
    {
      name: 'test_tool_with_task',
      description: 'Asks for a name (multi round-trip), then becomes a task that greets it.',
      task: { support: 'required', start: 'handler' },
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'What is your name?',
        requestedSchema: object({ name: { type: 'string' } }, ['name']),
      });
      await ctx.startTask();
      await wait(300, ctx.signal);
      const name = answer.action === 'accept' ? answer.content?.name : undefined;
      return `Hello, ${name ?? 'stranger'}!`;
    },
  );
}
