// A name the server does not know (a tool or a prompt) answered with the closest one it lists.
import { JsonRpcError } from '../client/index.js';
import { closest } from './did-you-mean.js';
import { CliError } from './errors.js';

/** The JSON-RPC code servers answer an unknown tool or prompt with (invalid params). */
const INVALID_PARAMS = -32602;

/**
 * `error` explained when it is the server refusing `name` and `name` is not among those it
 * lists: "no tool X", with the closest listed name as a hint. Any other error is returned as is
 * (also when listing fails).
 */
export async function explainUnknownName(
  error: unknown,
  asked: {
    readonly kind: 'tool' | 'prompt';
    readonly name: string;
    readonly list: () => Promise<readonly { name: string }[]>;
  },
): Promise<unknown> {
  const { kind, name, list } = asked;
  if (!(error instanceof JsonRpcError) || error.code !== INVALID_PARAMS) return error;
  const names = await list().then(
    (items) => items.map((item) => item.name),
    () => undefined,
  );
  if (names === undefined || names.includes(name)) return error;
  const near = closest(name, names);
  const listing = kind === 'tool' ? 'mcpkit list' : 'mcpkit list prompts';
  return new CliError(`the server has no ${kind} "${name}"`, {
    hint:
      near === undefined
        ? `${listing} shows the ${kind}s it has`
        : `did you mean "${near}"? (${listing} shows them all)`,
    cause: error,
  });
}
