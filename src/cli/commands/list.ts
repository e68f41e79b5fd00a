// mcpkit list: a server's tools, resources, resource templates or prompts, as a table for people
// or as the raw listing (every page) with --json.
import type { Client, Prompt, Resource, ResourceTemplate, Tool } from '../../client/index.js';
import { SHARED_HELP, text } from '../args.js';
import type { CommandContext } from '../command.js';
import { noMoreArguments, runCommand, sessionOptions } from '../command.js';
import { closest } from '../did-you-mean.js';
import { CliError, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import type { Style } from '../output.js';
import { columns, firstLine, table, writeJson } from '../output.js';
import type { Target } from '../target.js';
import { singleTarget, withSession } from '../target.js';

/** The --help text. */
export const help: string = `Usage: mcpkit list <url> [tools|resources|templates|prompts] [flags]
       mcpkit list [tools|resources|templates|prompts] [flags] -- <command> [args...]
       mcpkit list <url> --tool <name> [flags]

Lists what a server offers, following every page. Tools show their title, the first line of
their description and their required arguments; --json prints the raw listing instead
({"tools": [...]}, {"resources": [...]}, {"resourceTemplates": [...]} or {"prompts": [...]}).
--tool shows one tool's whole definition: description, annotations and schemas (--json: the
tool as listed).

Flags:
  --tool <name>   show this tool's full definition

Examples:
  mcpkit list http://127.0.0.1:3000/mcp
  mcpkit list http://127.0.0.1:3000/mcp prompts
  mcpkit list http://127.0.0.1:3000/mcp --tool get-sum
  mcpkit list templates -- node server.js
  mcpkit list --json -- node server.js | jq '.tools[].name'

${SHARED_HELP}`;

const KINDS = {
  tools: 'tools',
  resources: 'resources',
  templates: 'resourceTemplates',
  'resource-templates': 'resourceTemplates',
  prompts: 'prompts',
} as const;

type Kind = (typeof KINDS)[keyof typeof KINDS];

/**
 * `mcpkit list -- node server.js resources` gives `resources` to the server's command and lists
 * tools: said on stderr (the listing goes on), with the order that lists what was meant.
 */
function warnKindAfterDash(ctx: CommandContext, target: Target, kindGiven: boolean): void {
  if (kindGiven || target.kind !== 'command') return;
  const last = target.args.at(-1);
  if (last === undefined || !(last in KINDS) || last === 'tools') return;
  const command = [target.command, ...target.args.slice(0, -1)].join(' ');
  ctx.io.stderr.write(
    `${ctx.style.yellow(`mcpkit list: warning: "${last}" after -- is an argument of the server's command, so this lists tools`)}\nhint: to list ${last}, put it before --: mcpkit list ${last} -- ${command}\n`,
  );
}

/** Runs `mcpkit list`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  const options = { tool: { type: 'string' } } as const;
  return runCommand({ name: 'list', options, help }, { args, io }, async (ctx) => {
    const { target, rest } = singleTarget(ctx.parsed, ctx.common);
    const one = text(ctx.parsed, 'tool');
    if (one !== undefined) {
      noMoreArguments(rest[0] === 'tools' ? rest.slice(1) : rest);
      return withSession(target, sessionOptions(ctx), async ({ client }) => {
        showTool(ctx, one, await client.listTools());
        return 0;
      });
    }
    const [word = 'tools', ...extra] = rest;
    noMoreArguments(extra);
    warnKindAfterDash(ctx, target, rest.length > 0);
    const kind = (KINDS as Record<string, Kind | undefined>)[word];
    if (kind === undefined) {
      throw new UsageError(
        `cannot list "${word}"`,
        'list one of: tools, resources, templates, prompts',
      );
    }
    return withSession(target, sessionOptions(ctx), async ({ client }) => {
      const items = await listOf(client, kind);
      if (ctx.common.json) {
        writeJson(ctx.io.stdout, { [kind]: items });
        return 0;
      }
      if (items.length === 0) {
        ctx.io.stdout.write(`${ctx.style.dim(`(no ${word})`)}\n`);
        return 0;
      }
      ctx.io.stdout.write(render(kind, items, ctx.style));
      return 0;
    });
  });
}

/** Prints one tool's definition; throws CliError (with the closest name) when it is not listed. */
function showTool(ctx: CommandContext, name: string, tools: readonly Tool[]): void {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) {
    const near = closest(
      name,
      tools.map((t) => t.name),
    );
    throw new CliError(`the server has no tool "${name}"`, {
      hint: near === undefined ? 'mcpkit list shows its tools' : `did you mean "${near}"?`,
    });
  }
  const { io, style } = ctx;
  if (ctx.common.json) {
    writeJson(io.stdout, tool);
    return;
  }
  const { title, description, inputSchema, outputSchema, annotations, ...rest } = tool;
  const rows: [string, string][] = [[style.bold('tool'), tool.name]];
  if (title !== undefined) rows.push([style.bold('title'), title]);
  io.stdout.write(columns(rows));
  if (description !== undefined) io.stdout.write(`\n${description}\n`);
  const sections: [string, unknown][] = [
    ['annotations', annotations],
    ['input schema', inputSchema],
    ['output schema', outputSchema],
    ...Object.entries(rest).filter(([key]) => key !== 'name'),
  ];
  for (const [label, value] of sections) {
    if (value === undefined) continue;
    io.stdout.write(`\n${style.bold(label)}\n${JSON.stringify(value, null, 2)}\n`);
  }
}

function listOf(client: Client, kind: Kind): Promise<unknown[]> {
  switch (kind) {
    case 'tools':
      return client.listTools();
    case 'resources':
      return client.listResources();
    case 'resourceTemplates':
      return client.listResourceTemplates();
    case 'prompts':
      return client.listPrompts();
  }
}

function render(kind: Kind, items: readonly unknown[], style: Style): string {
  const options = { style };
  switch (kind) {
    case 'tools':
      return table(
        ['NAME', 'TITLE', 'DESCRIPTION', 'REQUIRED ARGS'],
        (items as Tool[]).map((tool) => [
          tool.name,
          tool.title ?? tool.annotations?.title ?? '',
          firstLine(tool.description, 60),
          requiredArgs(tool.inputSchema),
        ]),
        options,
      );
    case 'resources':
      return table(
        ['NAME', 'URI', 'MIME TYPE', 'DESCRIPTION'],
        (items as Resource[]).map((r) => [
          r.name,
          r.uri,
          r.mimeType ?? '',
          firstLine(r.description, 50),
        ]),
        options,
      );
    case 'resourceTemplates':
      return table(
        ['NAME', 'URI TEMPLATE', 'MIME TYPE', 'DESCRIPTION'],
        (items as ResourceTemplate[]).map((t) => [
          t.name,
          t.uriTemplate,
          t.mimeType ?? '',
          firstLine(t.description, 50),
        ]),
        options,
      );
    case 'prompts':
      return table(
        ['NAME', 'TITLE', 'DESCRIPTION', 'REQUIRED ARGS'],
        (items as Prompt[]).map((p) => {
          const args = p.arguments ?? [];
          const required = args.filter((a) => a.required === true).map((a) => a.name);
          return [
            p.name,
            p.title ?? '',
            firstLine(p.description, 60),
            withOptional(required, args.length),
          ];
        }),
        options,
      );
  }
}

/** `a, b (+2 optional)` from an input schema's `required` and `properties`. */
function requiredArgs(schema: Tool['inputSchema'] | undefined): string {
  const properties = schema?.['properties'];
  const count =
    typeof properties === 'object' && properties !== null ? Object.keys(properties).length : 0;
  const required = schema?.['required'];
  const names = Array.isArray(required)
    ? required.filter((name): name is string => typeof name === 'string')
    : [];
  return withOptional(names, count);
}

function withOptional(required: readonly string[], total: number): string {
  const optional = total - required.length;
  const names = required.length === 0 ? '-' : required.join(', ');
  return optional > 0 ? `${names} (+${String(optional)} optional)` : names;
}
