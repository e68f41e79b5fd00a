// mcpkit skills: the agent skills a server publishes (the skills extension): list them, or show
// one, fetched only then and verified (size, digest, frontmatter) before it is printed.
import { LocalError, LocalErrorCode } from '../../client/index.js';
import { skillsClient } from '../../ext/skills/index.js';
import { SHARED_HELP } from '../args.js';
import { noMoreArguments, runCommand, sessionOptions } from '../command.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { columns, writeJson } from '../output.js';
import { singleTarget, withSession } from '../target.js';

/** The --help text. */
export const help: string = `Usage: mcpkit skills <url> [skill] [flags]
       mcpkit skills [skill] [flags] -- <command> [args...]

Lists the agent skills a server publishes (the skills extension): each skill's name, its
description and how many files it has. With a skill (its name, or the URI of its SKILL.md) it
fetches that skill's SKILL.md, checks it against the listing (its size, its sha256 digest and
its frontmatter) and prints it; nothing is fetched before it is asked for, and a skill that
does not match its listing is refused (exit 2).

Examples:
  mcpkit skills http://127.0.0.1:3000/mcp
  mcpkit skills http://127.0.0.1:3000/mcp mcpkit-tour
  mcpkit skills --json -- node server.js

${SHARED_HELP}`;

/** Runs `mcpkit skills`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'skills', options: {}, help }, { args, io }, async (ctx) => {
    const { target, rest } = singleTarget(ctx.parsed, ctx.common);
    const [wanted, ...extra] = rest;
    noMoreArguments(extra);
    return withSession(target, sessionOptions(ctx), async ({ client }) => {
      const published = client.extend(skillsClient());
      const skills = await published.list().catch((error: unknown) => {
        // A server without the extension publishes no skills: that is an answer, not a failure.
        if (error instanceof LocalError && error.code === LocalErrorCode.Unsupported) return [];
        throw error;
      });
      if (wanted === undefined) {
        if (ctx.common.json) writeJson(ctx.io.stdout, skills);
        else if (skills.length === 0) ctx.io.stdout.write('no skills\n');
        else {
          const rows = skills.map((s) => [
            s.frontmatter.name,
            s.resources === 'dynamic' ? 'dynamic' : `${String(s.resources.length)} files`,
            s.frontmatter.description,
          ]);
          ctx.io.stdout.write(`${columns(rows)}\n`);
        }
        return 0;
      }
      const entry = skills.find((s) => s.frontmatter.name === wanted || s.uri === wanted);
      if (entry === undefined) {
        const names = skills.map((s) => s.frontmatter.name).join(', ');
        throw new UsageError(
          `no skill "${wanted}"`,
          names === '' ? 'the server publishes none' : `the skills are ${names}`,
        );
      }
      const skill = await published.read(entry.uri);
      if (ctx.common.json) {
        writeJson(ctx.io.stdout, {
          entry: skill.entry,
          frontmatter: skill.frontmatter,
          body: skill.body,
        });
      } else {
        ctx.io.stdout.write(skill.file.text ?? new TextDecoder().decode(skill.file.bytes));
      }
      return 0;
    });
  });
}
