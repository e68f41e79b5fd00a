// Elicitation from the command line: answers come from --answer key=value flags first, then
// from the person at the terminal (one readline prompt per field of the flat requestedSchema).
// Without a terminal and without answers the request is declined, with a message that says
// how to answer it. Spec 2025-11-25 client/elicitation.
import { createInterface } from 'node:readline';
import type { ElicitHandler, ElicitParams } from '../client/index.js';
import type { Spec20260728 } from '../protocol/index.js';
import type { Io } from './io.js';
import type { Style } from './output.js';

type FieldSchema = Spec20260728.PrimitiveSchemaDefinition;
type ElicitResult = Spec20260728.ElicitResult;
type Answer = NonNullable<ElicitResult['content']>[string];
type FormParams = Extract<ElicitParams, { requestedSchema: unknown }>;

/** What promptField returns when input ends. */
const CANCEL: unique symbol = Symbol('cancel');

/** Options of {@link createElicitHandler}. */
export interface ElicitOptions {
  readonly io: Io;
  readonly style: Style;
  /** Answers given with --answer, by field name. */
  readonly answers: ReadonlyMap<string, string>;
  /** Called before anything is printed (the progress bar is cleared). */
  readonly beforePrompt?: () => void;
}

/** Creates the client's elicitation handler (form and URL mode). */
export function createElicitHandler(options: ElicitOptions): ElicitHandler {
  return async (params, ctx) => {
    options.beforePrompt?.();
    // One reader for the whole request, so that lines typed ahead are not lost between fields.
    const prompter = options.io.isTTY ? openPrompter(options.io, ctx.signal) : undefined;
    try {
      if (params.mode === 'url') return await urlMode(params, options, prompter);
      return await formMode(params, options, prompter);
    } finally {
      prompter?.close();
    }
  };
}

async function urlMode(
  params: { message: string; url: string },
  options: ElicitOptions,
  prompter: Prompter | undefined,
): Promise<ElicitResult> {
  const { io, style } = options;
  io.stderr.write(
    `${style.bold('? the server asks you to open a URL:')} ${params.message}\n  ${params.url}\n`,
  );
  if (prompter === undefined) {
    io.stderr.write(
      `${style.yellow('mcpkit: declined')}: the server asked to open a URL, and stdin is not a terminal\n`,
    );
    return { action: 'decline' };
  }
  const reply = await prompter.ask('  open it, then press Enter to continue (n to decline): ');
  if (reply === undefined) return { action: 'cancel' };
  return /^n(o)?$/i.test(reply.trim()) ? { action: 'decline' } : { action: 'accept' };
}

async function formMode(
  params: FormParams,
  options: ElicitOptions,
  prompter: Prompter | undefined,
): Promise<ElicitResult> {
  const { io, style, answers } = options;
  const properties = Object.entries(params.requestedSchema.properties);
  const required = new Set(params.requestedSchema.required ?? []);
  const names = properties.map(([name]) => name);
  io.stderr.write(`${style.bold('? the server asks:')} ${params.message}\n`);
  for (const name of answers.keys()) {
    if (!names.includes(name)) {
      io.stderr.write(
        `${style.yellow('warning')}: --answer ${name} is not a field of this request\n`,
      );
    }
  }
  if (answers.size === 0 && prompter === undefined) {
    const fields = names.length === 0 ? '' : ` (fields: ${names.join(', ')})`;
    io.stderr.write(
      `${style.yellow('mcpkit: declined')} the server's request for input: stdin is not a terminal; answer with --answer <field>=<value>${fields}\n`,
    );
    return { action: 'decline' };
  }
  const content: Record<string, Answer> = {};
  for (const [name, schema] of properties) {
    const given = answers.get(name);
    const coerced = given === undefined ? undefined : coerce(given, schema);
    if (coerced !== undefined && 'value' in coerced) {
      content[name] = coerced.value;
      continue;
    }
    if (prompter === undefined) {
      if (coerced !== undefined) return declineWith(options, `--answer ${name}: ${coerced.error}`);
      if (required.has(name)) {
        return declineWith(
          options,
          `no answer for the required field "${name}"; pass --answer ${name}=<value>`,
        );
      }
      continue;
    }
    if (coerced !== undefined)
      io.stderr.write(`  ${style.red(`--answer ${name}: ${coerced.error}`)}\n`);
    const answer = await promptField(
      { io, prompter },
      { name, schema, required: required.has(name), style },
    );
    if (answer === CANCEL) return { action: 'cancel' };
    if (answer !== undefined) content[name] = answer;
  }
  return { action: 'accept', content };
}

function declineWith(options: ElicitOptions, reason: string): ElicitResult {
  options.io.stderr.write(
    `${options.style.yellow('mcpkit: declined')} the server's request for input: ${reason}\n`,
  );
  return { action: 'decline' };
}

/** Asks for one field until the answer is valid; undefined when skipped, CANCEL on EOF. */
async function promptField(
  via: { io: Io; prompter: Prompter },
  field: { name: string; schema: FieldSchema; required: boolean; style: Style },
): Promise<Answer | typeof CANCEL | undefined> {
  const { io, prompter } = via;
  const { name, schema, required, style } = field;
  const label = describeField(name, schema, required);
  for (;;) {
    const reply = await prompter.ask(`  ${label}: `);
    if (reply === undefined) return CANCEL;
    if (reply === '') {
      if (!required) return undefined;
      io.stderr.write(`  ${style.red('this field is required')}\n`);
      continue;
    }
    const coerced = coerce(reply, schema);
    if ('value' in coerced) return coerced.value;
    io.stderr.write(`  ${style.red(coerced.error)}\n`);
  }
}

function describeField(name: string, schema: FieldSchema, required: boolean): string {
  const title = 'title' in schema && typeof schema.title === 'string' ? schema.title : name;
  const parts: string[] = [schema.type];
  const choices = choicesOf(schema);
  if (choices !== undefined) parts.push(`one of ${choices.map((c) => c.value).join(', ')}`);
  if (required) parts.push('required');
  const dflt = (schema as { default?: unknown }).default;
  if (dflt !== undefined) parts.push(`default ${JSON.stringify(dflt)}`);
  const description =
    'description' in schema && typeof schema.description === 'string'
      ? ` - ${schema.description}`
      : '';
  return `${title}${description} (${parts.join(', ')})`;
}

/** Prompter asks for lines at the terminal, one prompt at a time. */
export interface Prompter {
  /** Writes `prompt` and resolves with the next line; undefined at end of input or on abort. */
  ask(prompt: string): Promise<string | undefined>;
  /** Stops reading. */
  close(): void;
}

/** Reads lines from stdin until closed; ends early when `signal` aborts. */
export function openPrompter(io: Io, signal: AbortSignal): Prompter {
  const rl = createInterface({ input: io.stdin, terminal: false });
  const queued: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let ended = false;
  const deliver = (line: string | undefined) => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.(line);
  };
  const end = () => {
    ended = true;
    deliver(undefined);
  };
  rl.on('line', (line) => {
    if (waiting === undefined) queued.push(line);
    else deliver(line);
  });
  rl.on('close', end);
  signal.addEventListener('abort', end, { once: true });
  return {
    ask(prompt) {
      io.stderr.write(prompt);
      const line = queued.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    close() {
      signal.removeEventListener('abort', end);
      rl.close();
    },
  };
}

interface Choice {
  value: string;
  title: string | undefined;
}

/** The allowed values of an enum field (single- or multi-select), with their titles. */
function choicesOf(schema: FieldSchema): Choice[] | undefined {
  const source = schema.type === 'array' ? (schema as { items?: unknown }).items : schema;
  const s = (source ?? {}) as {
    enum?: unknown;
    enumNames?: unknown;
    oneOf?: unknown;
    anyOf?: unknown;
  };
  if (Array.isArray(s.enum)) {
    const titles = Array.isArray(s.enumNames) ? s.enumNames : [];
    return s.enum.map((value, i) => ({ value: String(value), title: stringOr(titles[i]) }));
  }
  const options = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (options === undefined) return undefined;
  return options.map((option) => {
    const o = option as { const?: unknown; title?: unknown };
    return { value: String(o.const), title: stringOr(o.title) };
  });
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Converts a typed answer to the field's type, or says why it does not fit. */
export function coerce(raw: string, schema: FieldSchema): { value: Answer } | { error: string } {
  const choices = choicesOf(schema);
  const pick = (text: string): string | undefined =>
    choices?.find((c) => c.value === text || c.title === text)?.value;
  switch (schema.type) {
    case 'boolean': {
      if (/^(y|yes|true|1)$/i.test(raw)) return { value: true };
      if (/^(n|no|false|0)$/i.test(raw)) return { value: false };
      return { error: `"${raw}" is not yes or no` };
    }
    case 'number':
    case 'integer': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value))
        return { error: `"${raw}" is not a number` };
      if (schema.type === 'integer' && !Number.isInteger(value)) {
        return { error: `"${raw}" is not an integer` };
      }
      return { value };
    }
    case 'array': {
      const picked = raw
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
      const values = picked.map(pick);
      const wrong = picked.filter((_, i) => values[i] === undefined);
      if (wrong.length > 0) return { error: `not among the choices: ${wrong.join(', ')}` };
      return { value: values as string[] };
    }
    case 'string': {
      if (choices === undefined) return { value: raw };
      const value = pick(raw);
      if (value === undefined) {
        return { error: `"${raw}" is not one of ${choices.map((c) => c.value).join(', ')}` };
      }
      return { value };
    }
    default:
      return { value: raw };
  }
}
