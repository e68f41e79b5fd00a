// What the modes share: a host on the bench's fake endpoint, with the workload's servers,
// playing one task by a script, and the task's figures.
import type { HostOptions } from '../../src/host/index.js';
import { Host, createAnthropicAdapter } from '../../src/host/index.js';
import type { BenchContext, Endpoint, EndpointStep, ModeRun, Task, TaskStep } from './types.js';

/** The model-facing name of a step's tool (known once the host has listed the tools). */
export type NameOf = (step: TaskStep) => string;

/**
 * Plays `task` on a host with `options`, the model following `script`. The run is ok when every
 * step's tool ran without an error, the model's last text is the task's answer, and the
 * endpoint answered every request (`check` may add a problem of the mode's own).
 */
export async function play(
  task: Task,
  context: BenchContext,
  {
    options,
    script,
  }: {
    readonly options: Partial<HostOptions>;
    readonly script: (name: NameOf, problems: string[]) => readonly EndpointStep[];
  },
): Promise<ModeRun> {
  const names = new Map<string, string>();
  const problems: string[] = [];
  const name: NameOf = (step) => {
    const found = names.get(`${step.server}/${step.tool}`);
    if (found === undefined) throw new Error(`no tool ${step.server}/${step.tool}`);
    return found;
  };
  const endpoint = await context.startEndpoint(script(name, problems));
  const host = new Host({
    model: createAnthropicAdapter({ baseUrl: endpoint.url, apiKey: 'bench', env: {} }),
    modelName: 'bench-1',
    servers: context.workload.servers,
    approval: { mode: 'always' },
    tokenizer: context.tokenizer,
    ...options,
  });
  try {
    await host.connect();
    for (const tool of host.tools) names.set(`${tool.server}/${tool.tool.name}`, tool.name);
    const result = await host.run([{ role: 'user', content: task.prompt }]);
    const ran = result.calls.filter((call) => call.server !== undefined);
    if (ran.length !== task.steps.length) problems.push(`${String(ran.length)} calls ran`);
    for (const call of ran) if (call.shaped.isError) problems.push(`${call.name} failed`);
    if (result.text !== task.answer) problems.push('no final answer');
    return tally(endpoint, problems);
  } finally {
    await host.close();
    await endpoint.close();
  }
}

/** A task's figures from what its endpoint counted, its problems (the endpoint's added) the note. */
export function tally(endpoint: Endpoint, problems: string[]): ModeRun {
  problems.push(...endpoint.problems);
  const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
  return {
    requests: endpoint.tokens.length,
    inputTokens: sum(endpoint.tokens),
    wireTokens: sum(endpoint.wireTokens),
    ok: problems.length === 0,
    ...(problems.length === 0 ? {} : { note: problems.join('; ') }),
  };
}

/** The tools of a request body, as sent (for the byte-identical check). */
export function toolsText(body: unknown): string {
  return JSON.stringify((body as { tools?: unknown }).tools ?? []);
}
