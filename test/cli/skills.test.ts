// mcpkit skills against a server that publishes skills (the conformance fixture's folder, served
// by `mcpkit serve` from a module): the list, one skill fetched and verified, an unknown name.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, cli, json, spawnCli, waitFor } from './run-cli.js';

describe('mcpkit skills', () => {
  let server: ChildProcess;
  let url = '';
  beforeAll(async () => {
    server = spawnCli(['serve', join(FIXTURES, 'skills-server.mjs'), '--http', '127.0.0.1:0']);
    url = (await waitFor(server, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/))[1] ?? '';
  });
  afterAll(async () => {
    server.kill('SIGTERM');
    await once(server, 'close');
  });

  it('lists the skills with their file counts and descriptions', async () => {
    const ran = await cli(['skills', url]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/pdf-processing\s+2 files\s+Extract text and tables/);
    expect(ran.stdout).toContain('release-notes');
    const listed = await cli(['skills', url, '--json']);
    expect(json(listed)).toHaveLength(2);
  });

  it('fetches one skill, verified against the listing, and prints its SKILL.md', async () => {
    const ran = await cli(['skills', url, 'pdf-processing']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('name: pdf-processing');
    expect(ran.stdout).toContain('# PDF processing');
  });

  it('names the skills there are for an unknown one (exit 3)', async () => {
    const ran = await cli(['skills', url, 'nope']);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('the skills are pdf-processing, release-notes');
  });
});

describe('mcpkit skills on the everything server', () => {
  it('lists and fetches its mcpkit-tour skill', async () => {
    const server = spawnCli(['serve', 'everything', '--http', '127.0.0.1:0']);
    try {
      const url = (await waitFor(server, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/))[1] ?? '';
      const listed = await cli(['skills', url]);
      expect(listed.stdout).toMatch(/mcpkit-tour\s+2 files/);
      const fetched = await cli(['skills', url, 'mcpkit-tour']);
      expect(fetched.code, fetched.stderr).toBe(0);
      expect(fetched.stdout).toContain('# Touring the everything server');
    } finally {
      server.kill('SIGTERM');
      await once(server, 'close');
    }
  });
});
