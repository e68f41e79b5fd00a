// mcpkit read: reads one resource and renders its contents (text printed, binary saved to files).
import { SHARED_HELP, text } from '../args.js';
import { noMoreArguments, runCommand, sessionOptions } from '../command.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { writeJson } from '../output.js';
import { createRenderer } from '../render.js';
import { singleTarget, withSession } from '../target.js';
import { explainUnknownName } from '../unknown-name.js';

/** The --help text. */
export const help: string = `Usage: mcpkit read <url> <uri> [flags]
       mcpkit read <uri> [flags] -- <command> [args...]

Reads a resource: text contents are printed, binary contents saved to files (a new temp
directory, or --out-dir) with their paths printed. --json prints the raw result.

Flags:
  --out-dir <dir>   where binary contents are saved

Examples:
  mcpkit read http://127.0.0.1:3000/mcp demo://resource/static/document/readme.md
  mcpkit read 'sql://tables/customers/schema' -- mcpkit serve sql
  mcpkit list resources -- node server.js     (to find the URIs)

${SHARED_HELP}`;

/** Runs `mcpkit read`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  const options = { 'out-dir': { type: 'string' } } as const;
  return runCommand({ name: 'read', options, help }, { args, io }, async (ctx) => {
    const { target, rest } = singleTarget(ctx.parsed, ctx.common);
    const [uri, ...extra] = rest;
    if (uri === undefined) {
      throw new UsageError('which resource?', 'give its URI: mcpkit list resources shows them');
    }
    noMoreArguments(extra);
    return withSession(target, sessionOptions(ctx), async ({ client }) => {
      const result = await client.readResource(uri).catch(async (error: unknown) => {
        throw await explainUnknownName(error, {
          kind: 'resource',
          name: uri,
          list: () => client.listResources().then((resources) => resources.map((r) => r.uri)),
        });
      });
      if (ctx.common.json) {
        writeJson(ctx.io.stdout, result);
        return 0;
      }
      const name = uri
        .replace(/^[a-z][a-z0-9+.-]*:\/*/i, '')
        .split(/[/?#]/)
        .filter(Boolean)
        .pop();
      const renderer = createRenderer({
        io: ctx.io,
        style: ctx.style,
        outDir: text(ctx.parsed, 'out-dir'),
        baseName: name ?? 'resource',
      });
      await renderer.contents(result.contents);
      return 0;
    });
  });
}
