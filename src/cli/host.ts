// What the CLI declares and answers as a host: roots, sampling and elicitation, as hosts such as
// Claude Desktop declare them, so that a server shows the CLI what it shows a host (servers may
// register tools only for clients that can answer them). `--capabilities` narrows the set;
// `--root` names the roots (default: the working directory); sampling is answered with
// `--sample-reply`, or by the person at the terminal, else refused with a hint.
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClientOptions, SampleHandler } from '../client/index.js';
import { JsonRpcError } from '../client/index.js';
import { createElicitHandler, openPrompter } from './elicit.js';
import { UsageError } from './errors.js';
import type { Io } from './io.js';
import type { Style } from './output.js';

/** The capabilities the CLI can declare, all by default. */
export const HOST_CAPABILITIES = ['roots', 'sampling', 'elicitation'] as const;
export type HostCapability = (typeof HOST_CAPABILITIES)[number];

/** The host settings of the shared flags. */
export interface HostSettings {
  /** `--capabilities`: what to declare. */
  readonly capabilities: ReadonlySet<HostCapability>;
  /** `--root`, as given (URIs or paths). Default: the working directory. */
  readonly roots: readonly string[];
  /** `--sample-reply`: the text every sampling request gets. */
  readonly sampleReply: string | undefined;
}

/** Reads `--capabilities roots,sampling` (or `none`, or `all`). Throws UsageError. */
export function parseCapabilities(value: string | undefined): ReadonlySet<HostCapability> {
  if (value === undefined || value === 'all') return new Set(HOST_CAPABILITIES);
  if (value === 'none' || value === '') return new Set();
  const names = value.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(HOST_CAPABILITIES as readonly string[]).includes(name)) {
      throw new UsageError(
        `unknown capability "${name}" in --capabilities`,
        `give a comma-separated list of ${HOST_CAPABILITIES.join(', ')}, or none`,
      );
    }
  }
  return new Set(names as HostCapability[]);
}

/** Reads the --root values: paths, or `file://` URIs (the only roots the spec allows). */
export function parseRoots(values: readonly string[]): readonly string[] {
  for (const value of values) {
    if (URI_SCHEME.test(value) && !value.startsWith('file://')) {
      throw new UsageError(
        `--root ${value}: a root is a file:// URI or a path`,
        'give a directory, such as --root . or --root file:///home/me/project',
      );
    }
  }
  return values;
}

/** A URI's scheme (two characters at least, so that C:\ stays a path). */
const URI_SCHEME = /^[a-z][a-z0-9+.-]+:/i;

/** Options of {@link hostOptions}. */
export interface HostContext {
  readonly io: Io;
  readonly style: Style;
  readonly settings: HostSettings;
  /** Where relative `--root` paths start, and the default root. */
  readonly cwd: string;
  /** `--answer` values for elicitation (call). */
  readonly answers?: ReadonlyMap<string, string>;
  /** Called before anything is printed for the person (the progress bar is cleared). */
  readonly beforePrompt?: () => void;
}

/** The client handlers of a host that declares `settings.capabilities`. */
export function hostOptions(context: HostContext): ClientOptions {
  const { io, style, settings } = context;
  const options: ClientOptions = {};
  if (settings.capabilities.has('roots')) {
    const roots = (settings.roots.length === 0 ? [context.cwd] : settings.roots).map((root) =>
      toRoot(root, context.cwd),
    );
    const onRoots = (): typeof roots => roots;
    options.onRoots = onRoots;
  }
  if (settings.capabilities.has('sampling')) {
    options.onSample = sampleHandler(context);
  }
  if (settings.capabilities.has('elicitation')) {
    options.onElicit = createElicitHandler({
      io,
      style,
      answers: context.answers ?? new Map(),
      ...(context.beforePrompt === undefined ? {} : { beforePrompt: context.beforePrompt }),
    });
    options.elicitation = { url: true, applyDefaults: true };
  }
  return options;
}

/** A root for `value`: a URI as given, a path as a `file://` URI. */
function toRoot(value: string, cwd: string): { uri: string; name: string } {
  if (URI_SCHEME.test(value)) return { uri: value, name: value };
  const path = resolve(cwd, value);
  return { uri: pathToFileURL(path).href, name: basename(path) || path };
}

/** User rejected the sampling request (spec client/sampling: clients answer -1). */
const SAMPLING_REJECTED = -1;

function sampleHandler(context: HostContext): SampleHandler {
  const { io, style, settings } = context;
  return async (params, ctx) => {
    context.beforePrompt?.();
    const reply = settings.sampleReply;
    if (reply !== undefined) return answer(reply);
    io.stderr.write(`${style.bold('? the server asks the model:')}\n`);
    for (const message of params.messages) {
      const blocks = Array.isArray(message.content) ? message.content : [message.content];
      for (const block of blocks) {
        const text = block.type === 'text' ? block.text : `[${block.type}]`;
        io.stderr.write(`  ${message.role}: ${text}\n`);
      }
    }
    if (!io.isTTY) {
      io.stderr.write(
        `${style.yellow('mcpkit: refused')}: a sampling request, and stdin is not a terminal\n`,
      );
      throw new JsonRpcError(
        SAMPLING_REJECTED,
        'the user did not answer: mcpkit has no model (pass --sample-reply TEXT)',
      );
    }
    const prompter = openPrompter(io, ctx.signal);
    try {
      const typed = await prompter.ask('  reply as the model (empty line refuses): ');
      if (typed === undefined || typed === '') {
        throw new JsonRpcError(SAMPLING_REJECTED, 'the user refused the sampling request');
      }
      return answer(typed);
    } finally {
      prompter.close();
    }
  };
}

function answer(text: string) {
  return {
    role: 'assistant' as const,
    content: { type: 'text' as const, text },
    model: 'mcpkit-cli',
    stopReason: 'endTurn',
  };
}
