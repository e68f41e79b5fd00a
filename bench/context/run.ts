// `npm run bench:context`: plays every task of the workload in every mode (modes/*.ts: eager,
// search_tools, deferred, code mode) against a fake model endpoint, and prints the input tokens
// each mode sent over each task, side by side, with the saving against eager. `--write` also
// rewrites the bench:context section of bench/RESULTS.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { loadTokenizerOrEstimate } from '../../src/host/index.js';
import { startEndpoint } from './endpoint.js';
import type { BenchContext, ContextMode, ModeRun } from './types.js';
import { createWorkload } from './workload.js';

/** The modes, in column order; a missing module is a column of dashes. */
const MODES = ['eager', 'search', 'deferred', 'code'] as const;

/** What {@link runBench} measured. */
export interface BenchResult {
  readonly modes: readonly (ContextMode | undefined)[];
  /** Per task id, per mode (by index of `modes`). */
  readonly runs: ReadonlyMap<string, (ModeRun | undefined)[]>;
  readonly toolCount: number;
  readonly servers: number;
  readonly extras: string[];
}

/** Loads the modes that exist. */
export async function loadModes(): Promise<(ContextMode | undefined)[]> {
  return Promise.all(
    MODES.map(async (name) => {
      const file = new URL(`./modes/${name}.ts`, import.meta.url);
      if (!existsSync(fileURLToPath(file))) return undefined;
      return ((await import(file.href)) as { mode: ContextMode }).mode;
    }),
  );
}

/** Plays the tasks (all, or those `only` names) in the modes. */
export async function runBench(
  modes: readonly (ContextMode | undefined)[],
  only?: readonly string[],
): Promise<BenchResult> {
  const workload = await createWorkload();
  const tokenizer = await loadTokenizerOrEstimate();
  const context: BenchContext = {
    workload,
    tokenizer,
    startEndpoint: (script) => startEndpoint(script, tokenizer),
  };
  const runs = new Map<string, (ModeRun | undefined)[]>();
  const extras: string[] = [];
  try {
    for (const task of workload.tasks) {
      if (only !== undefined && !only.includes(task.id)) continue;
      const row: (ModeRun | undefined)[] = [];
      for (const mode of modes)
        row.push(mode === undefined ? undefined : await mode.run(task, context));
      runs.set(task.id, row);
    }
    for (const mode of modes) if (mode?.extra !== undefined) extras.push(await mode.extra(context));
  } finally {
    await workload.close();
  }
  return {
    modes,
    runs,
    toolCount: workload.toolCount,
    servers: Object.keys(workload.servers).length,
    extras,
  };
}

/** The saving of `run` against `eager`, in percent. */
export function saving(run: ModeRun | undefined, eager: ModeRun | undefined): number | undefined {
  if (run === undefined || eager === undefined || eager.inputTokens === 0) return undefined;
  return (1 - run.inputTokens / eager.inputTokens) * 100;
}

/** The results as a Markdown table. */
export function table(result: BenchResult): string {
  const names = MODES.map((name, i) => result.modes[i]?.name ?? name);
  const lines = [
    `| task | ${names.map((n) => `${n} (tokens, requests)`).join(' | ')} |`,
    `| --- | ${names.map(() => '---:').join(' | ')} |`,
  ];
  const totals = names.map(() => 0);
  for (const [id, row] of result.runs) {
    const cells = row.map((run, i) => {
      if (run === undefined) return '—';
      totals[i] = (totals[i] ?? 0) + run.inputTokens;
      const save = i === 0 ? '' : ` (−${(saving(run, row[0]) ?? 0).toFixed(1)}%)`;
      return `${run.inputTokens.toLocaleString('en')} in ${String(run.requests)}${save}${run.ok ? '' : ` ⚠ ${run.note ?? ''}`}`;
    });
    lines.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  const eager = totals[0] ?? 0;
  const wire = names.map((_, i) =>
    [...result.runs.values()].reduce((sum, row) => sum + (row[i]?.wireTokens ?? 0), 0),
  );
  lines.push(
    `| wire (whole bodies) | ${wire.map((t, i) => (result.modes[i] === undefined ? '—' : t.toLocaleString('en'))).join(' | ')} |`,
  );
  lines.push(
    `| **all** | ${totals.map((t, i) => (result.modes[i] === undefined ? '—' : `**${t.toLocaleString('en')}**${i === 0 || eager === 0 ? '' : ` (−${((1 - t / eager) * 100).toFixed(1)}%)`}`)).join(' | ')} |`,
  );
  return lines.join('\n');
}

const START = '<!-- bench:context -->';
const END = '<!-- /bench:context -->';

async function main(): Promise<void> {
  const write = process.argv.includes('--write');
  const result = await runBench(await loadModes());
  const text = [
    `${String(result.servers)} servers, ${String(result.toolCount)} tools; input tokens (o200k_base) of every request body over each task, as the model's context holds it.`,
    '',
    table(result),
    ...result.extras.map((extra) => `\n${extra}`),
  ].join('\n');
  process.stdout.write(`${text}\n`);
  if (write) {
    const file = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
    const old = readFileSync(file, 'utf8');
    const section = `${START}\n${text}\n${END}`;
    const at = old.indexOf(START);
    const next =
      at === -1
        ? `${old.trimEnd()}\n\n${section}\n`
        : `${old.slice(0, at)}${section}${old.slice(old.indexOf(END) + END.length)}`;
    // Formatted as the repository's Markdown is (prettier aligns the table).
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(file)) ?? {};
    writeFileSync(file, await prettier.format(next, { ...options, filepath: file }));
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
