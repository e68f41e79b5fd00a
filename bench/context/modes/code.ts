// Code mode (#41): the model is offered run_code only; its plan for a task is the code it writes
// (one run_code call that makes every step's call in the sandbox, printing what the answer needs:
// for the data-heavy task, the sum of the rows and never the rows). `extra` measures the
// sandbox's overhead: start-up, and a tool call from code against the same call made directly.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { createPingmeServer } from '../../../servers/pingme/server.js';
import type { Client } from '../../../src/client/index.js';
import type { CodeApi } from '../../../src/code-mode/index.js';
import { buildCodeApi, runCode, runCodeTool } from '../../../src/code-mode/index.js';
import { listen } from '../../../src/transports/http/server/node.js';
import type { HostEvent } from '../../../src/host/index.js';
import { Host, createAnthropicAdapter } from '../../../src/host/index.js';
import { tally } from '../play.js';
import type { BenchContext, ContextMode, ModeRun, Task, TaskStep } from '../types.js';

/** The code a model writes for `task`; `ref` gives a step's `namespace.function`. */
export function codeFor(task: Task, ref: (step: TaskStep) => string): string {
  if (task.dataHeavy === true) {
    const [step] = task.steps;
    if (step === undefined) throw new Error(`task ${task.id} has no step`);
    return [
      `const r = await ${ref(step)}(${JSON.stringify(step.arguments)});`,
      `const col = (name) => r.columns.findIndex((c) => c.name === name);`,
      `const q = col('quantity'), p = col('unit_price');`,
      `let total = 0;`,
      `for (const row of r.rows) total += row[q] * Number(row[p]);`,
      `console.log('rows:', r.rowCount, 'revenue:', Math.round(total * 100) / 100);`,
    ].join('\n');
  }
  return task.steps
    .map(
      (step, i) =>
        `const r${String(i)} = await ${ref(step)}(${JSON.stringify(step.arguments)});\n` +
        `console.log(JSON.stringify(r${String(i)}).slice(0, 600));`,
    )
    .join('\n');
}

/** Plays `task` in code mode: one run_code call, then the answer. */
async function run(task: Task, context: BenchContext): Promise<ModeRun> {
  const refs = new Map<string, string>();
  const ref = (step: TaskStep): string => {
    const found = refs.get(`${step.server}/${step.tool}`);
    if (found === undefined) throw new Error(`no function for ${step.server}/${step.tool}`);
    return found;
  };
  const endpoint = await context.startEndpoint([
    () => ({ toolCalls: [{ name: 'run_code', arguments: { code: codeFor(task, ref) } }] }),
    { text: task.answer },
  ]);
  const approved: HostEvent[] = [];
  const host = new Host({
    model: createAnthropicAdapter({ baseUrl: endpoint.url, apiKey: 'bench', env: {} }),
    modelName: 'bench-1',
    servers: context.workload.servers,
    approval: { mode: 'always' },
    tokenizer: context.tokenizer,
    codeMode: true,
    onEvent: (event) => {
      if (event.type === 'approval' && event.decision === 'approved') approved.push(event);
    },
  });
  const problems: string[] = [];
  try {
    await host.connect();
    // The names the host's declarations use (the same builder).
    for (const [key, item] of buildCodeApi(host.tools).entries) {
      refs.set(`${item.entry.server}/${item.entry.tool.name}`, key);
    }
    const result = await host.run([{ role: 'user', content: task.prompt }]);
    const [call] = result.calls;
    if (call === undefined || call.shaped.isError) problems.push('run_code failed');
    if (approved.length !== task.steps.length)
      problems.push(`${String(approved.length)} calls ran`);
    if (result.text !== task.answer) problems.push('no final answer');
    return tally(endpoint, problems);
  } finally {
    await host.close();
    await endpoint.close();
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what}`);
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Per-call time of PingME on `client`, direct and from code, after warm-up (medians, µs). */
async function perCall(client: Client, api: CodeApi): Promise<{ direct: number; code: number }> {
  const calls = 200;
  const fn = required([...api.entries.keys()][0], 'the PingME function');
  const rounds: { direct: number; code: number }[] = [];
  for (let round = 0; round < 12; round++) {
    let t = performance.now();
    for (let i = 0; i < calls; i++) await client.callTool('PingME', {});
    const direct = (performance.now() - t) / calls;
    t = performance.now();
    const result = await runCodeTool(
      api,
      { code: `for (let i = 0; i < ${String(calls)}; i++) await ${fn}({});` },
      {
        call: (entry, args) => client.callTool(entry.tool.name, args),
        limits: { maxToolCalls: calls },
      },
    );
    if (result.isError === true) throw new Error(JSON.stringify(result.content));
    rounds.push({ direct, code: (performance.now() - t) / calls });
  }
  // The first rounds warm the JIT up; the medians of the last six.
  const kept = rounds.slice(6);
  return {
    direct: median(kept.map((r) => r.direct)) * 1000,
    code: median(kept.map((r) => r.code)) * 1000,
  };
}

/** The built CLI, which the stdio row starts as a host would (`mcpkit serve pingme`). */
const CLI = fileURLToPath(new URL('../../../dist/esm/src/cli/main.js', import.meta.url));

/** Where each per-call row's PingME runs. */
const WHERE = {
  memory: 'an in-memory pair',
  stdio: 'stdio (`mcpkit serve pingme`, a child process)',
  http: 'Streamable HTTP on 127.0.0.1',
} as const;

/** Start-up and per-call overhead of the sandbox, as Markdown lines. */
export async function overhead(context: BenchContext): Promise<string> {
  const first = performance.now();
  const none = () => Promise.reject(new Error('none'));
  await runCode({ code: 'return 1', namespaces: {}, call: none });
  const cold = performance.now() - first;
  const starts: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await runCode({ code: 'return 1', namespaces: {}, call: none });
    starts.push(performance.now() - t);
  }
  const http = await listen(() => createPingmeServer());
  const host = new Host({
    model: createAnthropicAdapter({ baseUrl: 'http://127.0.0.1:9', apiKey: 'bench', env: {} }),
    modelName: 'bench-1',
    servers: {
      memory: required(context.workload.servers['pingme'], 'the pingme server'),
      ...(existsSync(CLI)
        ? { stdio: { command: process.execPath, args: [CLI, 'serve', 'pingme'] } }
        : {}),
      http: { url: http.url },
    },
  });
  try {
    await host.connect();
    const rows: string[] = [];
    for (const server of ['memory', 'stdio', 'http'] as const) {
      const where = WHERE[server];
      if (server === 'stdio' && !existsSync(CLI)) {
        rows.push(
          `- a tool call from code, PingME over ${where}: not measured, dist/ is missing (npm run build)`,
        );
        continue;
      }
      const api = buildCodeApi(host.tools.filter((tool) => tool.server === server));
      const figures = await perCall(required(host.client(server), `a client of ${server}`), api);
      rows.push(
        `- a tool call from code, PingME over ${where}: ${figures.code.toFixed(0)} µs against ${figures.direct.toFixed(0)} µs direct, ${(figures.code / figures.direct).toFixed(2)}x (+${(figures.code - figures.direct).toFixed(0)} µs a call; 200 calls in one run, medians of 6 rounds after 6 of warm-up); target within 2x`,
      );
    }
    return [
      `Code-mode sandbox (QuickJS via quickjs-emscripten 0.32, sync release variant, in a worker thread):`,
      `- start-up of a run in the warm worker (fresh runtime and context, bootstrap, \`return 1\`): median ${median(starts).toFixed(2)} ms over 30 runs (the first run of the process, which starts the worker and compiles the WebAssembly module: ${cold.toFixed(1)} ms); target < 50 ms`,
      ...rows,
    ].join('\n');
  } finally {
    await host.close();
    await http.close();
  }
}

/** The code-mode column of `npm run bench:context`. */
export const mode: ContextMode = { name: 'code mode', run, extra: overhead };
