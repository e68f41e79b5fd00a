// The CLI's frame: help, version, usage errors (exit 3), unreachable servers (exit 2), and
// failures as one line plus a hint, with a stack trace only under --debug.
import { describe, expect, it } from 'vitest';
import { FIXTURE, cli, closedPort, hasAnsi } from './run-cli.js';

const COMMANDS = ['serve', 'info', 'list', 'call', 'read', 'prompt', 'complete', 'budget', 'lint'];

describe.concurrent('mcpkit', () => {
  it('leaves a --debug after -- to the server command', async () => {
    const theirs = await cli(['list', '--', 'node', '/nonexistent-server.js', '--debug']);
    expect(theirs.code).toBe(2);
    expect(theirs.stderr).not.toMatch(/ at .*dist\/esm\//); // no stack trace of ours
    const ours = await cli(['list', '--debug', '--', 'node', '/nonexistent-server.js']);
    expect(ours.stderr).toMatch(/ at .*dist\/esm\//);
  });

  it('lists every command in --help and exits 0', async () => {
    const ran = await cli(['--help']);
    expect(ran.code).toBe(0);
    for (const command of COMMANDS) expect(ran.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(ran.stdout).toContain('Exit codes');
    expect(hasAnsi(ran.stdout)).toBe(false);
  });

  it('prints the package version with --version', async () => {
    const ran = await cli(['--version']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('prints help with examples for every command', async () => {
    const runs = await Promise.all(COMMANDS.map((command) => cli([command, '--help'])));
    runs.forEach((ran, index) => {
      expect(ran.code, COMMANDS[index]).toBe(0);
      expect(ran.stdout, COMMANDS[index]).toMatch(/^Usage: mcpkit /);
      expect(ran.stdout, COMMANDS[index]).toContain('Examples:');
    });
  });

  it('exits 3 with a hint for an unknown command', async () => {
    const ran = await cli(['frobnicate']);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toBe(
      'mcpkit: unknown command "frobnicate"\nhint: the commands are serve, dev, info, list, call, read, prompt, tasks, skills, complete, chat, gateway, inspect, replay, budget, lint, login, logout, auth; run "mcpkit --help"\n',
    );
  });

  it('suggests the command a typo was meant to be', async () => {
    const ran = await cli(['sevre']);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toBe(
      'mcpkit: unknown command "sevre"\nhint: did you mean "mcpkit serve"? (run "mcpkit --help" for every command)\n',
    );
  });

  it('exits 3 in one line plus a hint for an unknown flag', async () => {
    const ran = await cli(['list', '--nope', '--', ...FIXTURE]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toBe(
      'mcpkit list: unknown option \'--nope\'\nhint: run "mcpkit list --help" for usage and examples\n',
    );
  });

  it('exits 3 when no server is given', async () => {
    const ran = await cli(['info']);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toMatch(/^mcpkit info: no server given\nhint: give a URL first/);
  });

  it('exits 3 for an unknown protocol revision', async () => {
    const ran = await cli(['info', '--protocol', '2099-01-01', '--', ...FIXTURE]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('unknown protocol revision "2099-01-01"');
  });

  it('exits 2 without a stack trace when the URL cannot be reached', async () => {
    const url = `http://127.0.0.1:${String(await closedPort())}/mcp`;
    const ran = await cli(['info', url]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    const lines = ran.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^mcpkit info: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: .*ECONNREFUSED/,
    );
    expect(lines[1]).toMatch(/^hint: /);
    expect(ran.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('prints the stack trace with --debug', async () => {
    const url = `http://127.0.0.1:${String(await closedPort())}/mcp`;
    const ran = await cli(['info', url, '--debug']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/LocalError: cannot reach/);
    expect(ran.stderr).toMatch(/\n\s+at .*\.js:\d+/);
  });

  it('exits 2 when the server command does not exist', async () => {
    const ran = await cli(['list', '--', 'mcpkit-no-such-command-xyz']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^mcpkit list: .*mcpkit-no-such-command-xyz.*command not found/);
    expect(ran.stderr).toMatch(/\nhint: /);
  });

  it('exits 2 and shows the output of a server process that dies', async () => {
    const ran = await cli([
      'list',
      '-q',
      '--',
      'node',
      '-e',
      'console.error("boom: no config"); process.exit(4)',
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('exit code 4');
    expect(ran.stderr).toContain('boom: no config');
  });
});
