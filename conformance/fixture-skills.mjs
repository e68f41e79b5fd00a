// Skills of the conformance fixture (the skills extension, SEP-2640, on 2026-07-28): what the
// suite's sep-2640-skills-* scenarios read. The skill files live in conformance/skills/, one
// folder per skill; the skills extension (mcpkit/skills) publishes them. Built only from
// mcpkit's public entries.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { skills } from 'mcpkit/skills';

const SKILLS = join(dirname(fileURLToPath(import.meta.url)), 'skills');

/** Publishes pdf-processing (with a references/ folder) and release-notes (with scripts/). */
export function registerSkills(server) {
  const published = skills();
  server.extend(published);
  return published.load(SKILLS);
}
