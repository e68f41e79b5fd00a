// The package as a user installs it: `npm pack` of this checkout, installed into a scratch folder
// outside the repository, then spawned the way a host spawns a server (the official SDK's stdio
// client, from yet another folder). Checks what the tarball ships (README, LICENSE, docs, every
// export, no tests or source maps) and what `mcpkit serve` says when an optional peer is missing.
// Skipped when dist/ is missing (`npm test` builds first); packs with --ignore-scripts so the
// build under test is the one `npm test` made.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { collect, ROOT } from '../cli/run-cli.js';

const run = promisify(execFile);
const hasDist = existsSync(join(ROOT, 'dist/esm/src/cli/main.js'));
if (!hasDist) console.log('package install: skipped, dist/ is missing (npm test builds it)');

interface PackedFile {
  path: string;
}
interface Packed {
  filename: string;
  files: PackedFile[];
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string;
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
  repository?: { url: string };
  homepage?: string;
  bugs?: { url: string };
  scripts: Record<string, string>;
};

describe.skipIf(!hasDist)('the packed package, installed outside the repository', () => {
  let scratch = '';
  let app = '';
  let bin = '';
  let packed: Packed;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'mcpkit-install-'));
    const { stdout } = await run(
      'npm',
      ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch],
      { cwd: ROOT },
    );
    packed = (JSON.parse(stdout) as Packed[])[0] as Packed;
    app = join(scratch, 'app');
    await run('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), '{"name":"app","private":true,"type":"module"}\n');
    await run(
      'npm',
      ['install', join(scratch, packed.filename), '--no-audit', '--no-fund', '--ignore-scripts'],
      { cwd: app },
    );
    bin = join(app, 'node_modules/.bin/mcpkit');
  }, 120_000);

  afterAll(() => {
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  /** Installs optional peers into the scratch app (links to this checkout's copies). */
  async function linkPeers(peers: readonly string[]): Promise<void> {
    for (const peer of peers) {
      if (existsSync(join(app, 'node_modules', peer))) continue;
      await run('mkdir', ['-p', join(app, 'node_modules', peer, '..')]);
      symlinkSync(join(ROOT, 'node_modules', peer), join(app, 'node_modules', peer));
    }
  }

  it('ships README, LICENSE, the docs README links to, every export and bin, and no tests', () => {
    const paths = new Set(packed.files.map((file) => file.path));
    expect(paths).toContain('README.md');
    expect(paths).toContain('LICENSE');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)#]+)/g)].map((match) => match[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(paths, `README links to ${link ?? ''}`).toContain(link);
    for (const target of Object.values(pkg.bin)) expect(paths).toContain(target);
    for (const entry of Object.values(pkg.exports)) {
      const targets = typeof entry === 'string' ? [entry] : [entry.types, entry.default];
      for (const target of targets) expect(paths).toContain(target.replace(/^\.\//, ''));
    }
    const stray = [...paths].filter((path) => /\.test\.|\/test\/|\.map$|^src\/|\.ts$/.test(path));
    expect(stray.filter((path) => !path.endsWith('.d.ts'))).toEqual([]);
  });

  it('has a LICENSE matching "license" and says where it lives', () => {
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs?.url).toMatch(/^https:\/\//);
    // pack and publish build first; publish also runs the checks.
    expect(pkg.scripts['prepack']).toBe('npm run build');
    expect(pkg.scripts['prepublishOnly']).toBe('npm run check');
  });

  it('installs with no runtime dependency and serves pingme over stdio to a host', async () => {
    expect(existsSync(join(app, 'node_modules/zod'))).toBe(false);
    const host = new SdkClient({ name: 'host', version: '1.0.0' });
    // A host spawns the installed bin from a folder of its own, as Claude Desktop does.
    await host.connect(
      new StdioClientTransport({
        command: bin,
        args: ['serve', 'pingme', '--stdio'],
        cwd: tmpdir(),
      }),
    );
    try {
      expect(host.getServerVersion()?.name).toBe('pingme');
      const { tools } = await host.listTools();
      expect(tools.map((tool) => tool.name)).toContain('PingME');
      const result = await host.callTool({ name: 'PingME', arguments: {} });
      expect(result.isError).not.toBe(true);
    } finally {
      await host.close();
    }
  }, 30_000);

  it('says which optional peer `serve demo` needs when it is missing', async () => {
    const child = spawn(bin, ['serve', 'demo', '--http', '127.0.0.1:0'], { cwd: app });
    const ran = await collect(child);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('demo needs the package "zod", which is not installed');
    expect(ran.stderr).toContain('npm install zod');
  }, 30_000);

  it('says that `serve sql` on a mysql:// DATABASE_URL needs mysql2 when it is missing', async () => {
    const child = spawn(bin, ['serve', 'sql'], {
      cwd: app,
      env: { ...process.env, DATABASE_URL: 'mysql://reader@127.0.0.1:1/shop' },
    });
    child.stdin.end();
    const ran = await collect(child);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('sql needs the package "mysql2", which is not installed');
    expect(ran.stderr).toContain('npm install mysql2');
  }, 30_000);

  it('says that `serve sql` on the embedded database needs PGlite when it is missing', async () => {
    const child = spawn(bin, ['serve', 'sql'], {
      cwd: app,
      env: { ...process.env, DATABASE_URL: '' },
    });
    child.stdin.end();
    const ran = await collect(child);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      'sql needs the package "@electric-sql/pglite", which is not installed',
    );
    expect(ran.stderr).toContain('npm install @electric-sql/pglite');
    expect(ran.stderr).not.toContain('unexpected error');
  }, 30_000);

  it('serves the demo without PGlite without the sql tools, and says so in the same words', async () => {
    await linkPeers(['zod']);
    const child = spawn(bin, ['serve', 'demo', '--http', '127.0.0.1:0'], {
      cwd: app,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let text = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const found = /serving at (http:\/\/\S+)/.exec(text);
          if (found?.[1] !== undefined) resolve(found[1]);
        });
        child.on('exit', (code) => {
          reject(new Error(`exited ${String(code)}: ${text}`));
        });
      });
      expect(text).toContain(
        'serving without the sql tools: they need the package "@electric-sql/pglite", which is not installed',
      );
      expect(text).toContain('npm install @electric-sql/pglite');
      const client = new Client({ name: 'installed', version: '1.0.0' });
      await client.connect(createStreamableHttpClientTransport(url));
      try {
        const names = (await client.listTools()).map((tool) => tool.name);
        expect(names).toContain('PingME');
        expect(names).not.toContain('query');
        expect(names).not.toContain('list_tables');
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);

  it('serves the demo with the optional peers installed, and the database on first use', async () => {
    await linkPeers(['zod', '@electric-sql/pglite']);
    const child = spawn(bin, ['serve', 'demo', '--http', '127.0.0.1:0'], {
      cwd: app,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stderr.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const found = /serving at (http:\/\/\S+)/.exec(text);
          if (found?.[1] !== undefined) resolve(found[1]);
        });
        child.on('exit', (code) => {
          reject(new Error(`exited ${String(code)}: ${text}`));
        });
      });
      const client = new Client({ name: 'installed', version: '1.0.0' });
      await client.connect(createStreamableHttpClientTransport(url));
      try {
        const result = await client.callTool('query', { sql: 'select 1 + 1 as two' });
        expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
        expect(JSON.stringify(result.structuredContent)).toContain('"two"');
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
