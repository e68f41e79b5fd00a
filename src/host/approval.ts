// The approval gate between a model's tool call (or a server's sampling request) and its run.

/** How calls are approved: every one, none, each asked, or by the tool's annotations. */
export type ApprovalMode = 'always' | 'never' | 'ask' | 'annotations';

/** A rule for one tool. */
export type ApprovalRule = 'always' | 'never' | 'ask';

/**
 * The approval policy. `mode` applies where no rule does (default `annotations`: a tool of a
 * trusted server annotated `readOnlyHint: true` and not `destructiveHint: true` is approved,
 * every other one asked, as annotations of other servers are only claims); `tools` holds rules
 * by the model-facing name or by `server/tool`; `sampling` rules servers' sampling requests
 * (default `ask`).
 */
export interface ApprovalPolicy {
  readonly mode?: ApprovalMode;
  readonly tools?: Readonly<Record<string, ApprovalRule>>;
  readonly sampling?: ApprovalRule;
}

/** What an approval callback is asked. */
export type ApprovalRequest =
  | {
      readonly kind: 'tool';
      readonly server: string;
      readonly tool: string;
      /** The model-facing name. */
      readonly name: string;
      readonly arguments: Record<string, unknown>;
      readonly annotations?: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: 'sampling';
      readonly server: string;
      /** The request's messages, as text, for showing. */
      readonly summary: string;
    };

/** Answers an approval request: true approves. */
export type ApprovalCallback = (request: ApprovalRequest) => boolean | Promise<boolean>;

/** The outcome of the gate. */
export type Decision = 'approved' | 'declined';

/**
 * The rule that applies to a tool call: a `tools` rule by name, then by `server/tool`, then the
 * mode (`annotations`: always when the server is `trusted` and the annotations say read-only
 * without contradicting themselves, `readOnlyHint: true` with `destructiveHint` not true; else
 * ask).
 */
export function ruleFor(
  policy: ApprovalPolicy,
  call: {
    name: string;
    server: string;
    tool: string;
    annotations?: Readonly<Record<string, unknown>>;
    /** Whether the configuration trusts the server's annotations. Default false. */
    trusted?: boolean;
  },
): ApprovalRule {
  const own = policy.tools?.[call.name] ?? policy.tools?.[`${call.server}/${call.tool}`];
  if (own !== undefined) return own;
  const mode = policy.mode ?? 'annotations';
  if (mode !== 'annotations') return mode;
  const hints = call.annotations;
  const readOnly = hints?.['readOnlyHint'] === true && hints['destructiveHint'] !== true;
  return call.trusted === true && readOnly ? 'always' : 'ask';
}

/**
 * Applies a rule: `always` approves, `never` declines, `ask` asks the callback (no callback, or
 * one that throws, declines).
 */
export async function decide(
  rule: ApprovalRule,
  request: ApprovalRequest,
  ask: ApprovalCallback | undefined,
): Promise<Decision> {
  if (rule === 'always') return 'approved';
  if (rule === 'never' || ask === undefined) return 'declined';
  try {
    return (await ask(request)) ? 'approved' : 'declined';
  } catch {
    return 'declined';
  }
}

/**
 * The gate for one tool call: the rule that applies to it ({@link ruleFor}), applied
 * ({@link decide}, asking `ask` with the call).
 */
export function approveToolCall(
  policy: ApprovalPolicy,
  ask: ApprovalCallback | undefined,
  call: Omit<Extract<ApprovalRequest, { kind: 'tool' }>, 'kind'> & { readonly trusted: boolean },
): Promise<Decision> {
  const { trusted, ...request } = call;
  return decide(ruleFor(policy, { ...request, trusted }), { kind: 'tool', ...request }, ask);
}
