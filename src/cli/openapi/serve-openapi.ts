// mcpkit serve openapi <document>: a REST API described by OpenAPI 3.0/3.1 (or Swagger 2.0,
// converted) served as MCP tools (mcpkit/openapi) over stdio or Streamable HTTP; with --check,
// the curated tools, what each costs in tokens, and lint's findings, without serving.
import type { Tool } from '../../client/index.js';
import { loadTokenizerOrEstimate, serializeTool } from '../../catalogue/index.js';
import type { OpenApiOptions, ToolPlan } from '../../openapi/index.js';
import {
  DEFAULT_BUDGET,
  DEFAULT_MAX_TOOLS,
  MAX_FOUND,
  createOpenApiServer,
  loadDocument,
  overBudget,
  planTools,
} from '../../openapi/index.js';
import { listen } from '../../transports/http/node.js';
import { createStdioServerTransport } from '../../transports/stdio/index.js';
import { flag, text, texts } from '../args.js';
import type { CommandContext } from '../command.js';
import { noMoreArguments, runCommand } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { lintServers } from '../lint-rules.js';
import {
  DEFAULT_PORT,
  listenError,
  parseAddress,
  untilStopped,
  watchClose,
  withHttpDefault,
} from '../serving.js';
import { OPENAPI_OPTIONS, openApiOptions } from './options.js';
import { messageOf } from '../../internal/message-of.js';

/** The --help text. */
export const help: string = `Usage: mcpkit serve openapi <file|url> [--stdio | --http [host:]port] [flags]

Serves a REST API described by OpenAPI 3.0 or 3.1 (JSON or YAML; Swagger 2.0 is converted to
3.0 first) as MCP tools, one per operation: named from operationId, described within a budget,
typed from the parameters and the body, calling the API with credentials the model never sees.
Needs the package @readme/openapi-parser (and @scalar/openapi-upgrader@0.1 for Swagger 2.0).
See docs/openapi.md.

Curation (flags add to --config; repeat a flag for alternatives):
  --config <file.json>     options of mcpkit/openapi: include, exclude, readOnly, tools
                           (rename, description, fixed values), headers, auth, budget, ...
  --include-tag <tag>      only operations with this tag
  --include-op <id>        only this operationId
  --include-path <glob>    only these paths (* is one segment, ** any: /repos/*/*/issues/**)
  --method <METHOD>        only this method (with the other --include flags: all must match)
  --exclude-tag <tag>, --exclude-op <id>, --exclude-path <glob>   leave these out
  --read-only              only GET, HEAD and OPTIONS
  --budget <tokens|off>    above it (default 10000 tokens, or past 40 tools), serve
                           search_tools instead of every tool; off lists every tool

Calling:
  --base-url <url>         the API's URL (default: the document's first server)
  -H, --header 'K: V'      send this header on every call; \${NAME} reads the environment
                           (-H 'Authorization: Bearer \${GITHUB_TOKEN}')
  --timeout <ms>           how long one call may take (default 30000)
  --allow <addr|cidr>      where redirects may lead besides the API's host (private ranges
                           are refused by default; repeatable)
  MCPKIT_OPENAPI_AUTH_<SCHEME>   a credential for the document's security scheme <SCHEME>
                           (bearer token, API key, user:password, client_id:client_secret)

Checking and serving:
  --check                  print the tools, their token cost and lint's findings; serve nothing
                           (exit 1 when lint finds an error)
  --no-validate            skip validating the document (GitHub's takes ~5 s)
  --stdio                  serve over stdin/stdout (the default)
  --http [host:]port       serve Streamable HTTP (port 0 picks a free one; default ${String(DEFAULT_PORT)})
  --allowed-host <name>    a Host header to accept when binding beyond loopback (repeatable)
  --json                   with --check: the report as JSON

Examples:
  mcpkit serve openapi ./petstore.yaml --base-url http://127.0.0.1:8080/v1
  mcpkit serve openapi api.github.com.json --include-tag issues --check
  mcpkit serve openapi api.github.com.json --include-tag issues --read-only \\
      -H 'Authorization: Bearer \${GITHUB_TOKEN}' --http 0`;

const OPTIONS = {
  ...OPENAPI_OPTIONS,
  http: { type: 'string' },
  stdio: { type: 'boolean' },
  'allowed-host': { type: 'string', multiple: true },
} as const;

/** Runs `mcpkit serve openapi`; resolves once the server has shut down (or --check printed). */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand(
    { name: 'serve openapi', options: OPTIONS, help },
    { args: withHttpDefault(args), io },
    async (ctx) => {
      const [source, ...extra] = ctx.parsed.positionals;
      if (source === undefined) {
        throw new UsageError('which document?', 'give the path or URL of an OpenAPI document');
      }
      noMoreArguments(extra);
      const http = text(ctx.parsed, 'http');
      if (http !== undefined && flag(ctx.parsed, 'stdio')) {
        throw new UsageError('choose one of --stdio and --http');
      }
      const options = await openApiOptions(ctx.parsed, io.env);
      const document = await loadDocument(source, {
        validate: !flag(ctx.parsed, 'no-validate'),
      }).catch((error: unknown) => {
        throw new CliError(messageOf(error), {
          hint: 'check the path or URL, and that it is an OpenAPI 3.0 or 3.1 (or Swagger 2.0) document',
          cause: error,
        });
      });
      const withSource = /^https?:/.test(source) ? { ...options, documentUrl: source } : options;
      if (flag(ctx.parsed, 'check'))
        return check(ctx, planTools(document, withSource).tools, withSource);
      const tokenizer = await loadTokenizerOrEstimate();
      const served = createOpenApiServer(document, { ...withSource, tokenizer });
      say(
        ctx,
        `mcpkit serve openapi: ${String(served.tools.length)} tools (${String(served.tokens)} tokens${served.mode === 'catalogue' ? ', over budget: search_tools' : ''}) calling ${served.baseUrl.href}`,
      );
      if (http === undefined) await serveStdio(ctx, served.server);
      else await serveHttp(ctx, served.server, parseAddress(http));
      return 0;
    },
  );
}

function say(ctx: CommandContext, line: string): void {
  if (!ctx.common.quiet) ctx.io.stderr.write(`${ctx.style.dim(line)}\n`);
}

async function serveStdio(
  ctx: CommandContext,
  server: ReturnType<typeof createOpenApiServer>['server'],
): Promise<void> {
  const { transport, closed } = watchClose(createStdioServerTransport());
  await server.connect(transport);
  say(ctx, 'mcpkit serve openapi: serving on stdio');
  const reason = await untilStopped(closed);
  say(ctx, `mcpkit serve openapi: stopped (${reason})`);
}

async function serveHttp(
  ctx: CommandContext,
  server: ReturnType<typeof createOpenApiServer>['server'],
  address: { host: string; port: number },
): Promise<void> {
  const allowedHosts = texts(ctx.parsed, 'allowed-host');
  let listening;
  try {
    listening = await listen(() => server, {
      host: address.host,
      port: address.port,
      health: true,
      ...(allowedHosts.length === 0 ? {} : { allowedHosts }),
    });
  } catch (error) {
    throw listenError(error, address);
  }
  ctx.io.stderr.write(
    ctx.common.quiet ? `${listening.url}\n` : `mcpkit serve openapi: serving at ${listening.url}\n`,
  );
  const reason = await untilStopped();
  say(ctx, `mcpkit serve openapi: stopping (${reason})`);
  await listening.close();
}

function budgetNote(
  over: boolean,
  { budget, options }: { budget: number | false; options: OpenApiOptions },
): string {
  if (budget === false) return ': no budget, every tool listed';
  const limits = `the budget of ${String(budget)} tokens and ${String(options.maxTools ?? DEFAULT_MAX_TOOLS)} tools`;
  return over
    ? `: over ${limits}, served as search_tools (at most ${String(MAX_FOUND)} found tools listed at once)`
    : `: within ${limits}`;
}

/** --check: each tool with its cost, the total against the budget, and lint's findings. */
async function check(
  ctx: CommandContext,
  tools: readonly ToolPlan[],
  options: OpenApiOptions,
): Promise<number> {
  const tokenizer = await loadTokenizerOrEstimate();
  const definitions = tools.map((plan) => ({
    name: plan.name,
    description: plan.description,
    inputSchema: plan.inputSchema,
    ...(plan.outputSchema === undefined ? {} : { outputSchema: plan.outputSchema }),
    annotations: plan.annotations,
  })) as Tool[];
  const costs = definitions.map((tool) => tokenizer.count(serializeTool(tool)));
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  const over = overBudget(options, { tools: tools.length, tokens: total });
  // Over budget a client lists search_tools and at most MAX_FOUND found tools at once: the
  // tool-count rule applies to that listing, every other rule to each tool.
  const findings = lintServers([{ name: 'openapi', tools: definitions }], {
    countTokens: (value) => tokenizer.count(value),
    ...(over ? { maxTools: Math.max(definitions.length, MAX_FOUND + 1) } : {}),
  });
  const errors = findings.filter((f) => f.severity === 'error').length;
  const budget = options.budget ?? DEFAULT_BUDGET;
  if (ctx.common.json) {
    const report = {
      tools: tools.map((plan, i) => ({
        name: plan.name,
        method: plan.operation.method,
        path: plan.operation.path,
        tokens: costs[i],
      })),
      tokens: total,
      encoding: tokenizer.encoding,
      budget,
      overBudget: over,
      findings,
    };
    ctx.io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return errors > 0 ? 1 : 0;
  }
  const width = Math.max(4, ...tools.map((plan) => plan.name.length));
  const out: string[] = [];
  tools.forEach((plan, i) => {
    out.push(
      `${plan.name.padEnd(width)}  ${String(costs[i]).padStart(6)}  ${plan.operation.method} ${plan.operation.path}`,
    );
  });
  out.push(
    '',
    `${String(tools.length)} tools, ${String(total)} tokens (${tokenizer.encoding})${budgetNote(over, { budget, options })}`,
  );
  const counts = ['error', 'warn', 'info'].map(
    (severity) => `${String(findings.filter((f) => f.severity === severity).length)} ${severity}`,
  );
  out.push(`lint: ${counts.join(', ')}`);
  for (const finding of findings) {
    const where = [finding.tool, finding.parameter].filter((part) => part !== undefined).join(' ');
    out.push(
      `  ${finding.severity} ${finding.rule}${where === '' ? '' : ` ${where}`}: ${finding.message}`,
    );
  }
  ctx.io.stdout.write(`${out.join('\n')}\n`);
  return errors > 0 ? 1 : 0;
}
