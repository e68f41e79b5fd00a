// Prometheus itself (Debian's `prometheus` package; .ci/run installs it when missing) scrapes
// `mcpkit serve everything --metrics`, and the test reads the server's duration histogram back
// from Prometheus's own HTTP API. Skipped, saying so, without the binary or dist/.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { BIN, closedPort, collect, spawnCli, waitFor } from './run-cli.js';

const PROMETHEUS = '/usr/bin/prometheus';
const hasPrometheus = existsSync(PROMETHEUS);
const hasDist = existsSync(BIN);
if (!hasPrometheus)
  console.log(`prometheus: skipped, ${PROMETHEUS} is missing (apt-get install prometheus)`);
if (!hasDist) console.log('prometheus: skipped, dist/ is missing (npm test builds it)');

type Query = {
  status: string;
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
};

describe.skipIf(!hasPrometheus || !hasDist)('Prometheus scraping mcpkit serve --metrics', () => {
  it('reads mcp_server_operation_duration_seconds_count back from Prometheus', async () => {
    const metricsPort = await closedPort();
    const webPort = await closedPort();
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-prometheus-'));
    const config = join(dir, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: mcpkit',
        '    static_configs:',
        `      - targets: ['127.0.0.1:${String(metricsPort)}']`,
        '',
      ].join('\n'),
    );
    const server = spawnCli([
      'serve',
      'everything',
      '--http',
      '0',
      '--metrics',
      String(metricsPort),
    ]);
    let prometheus: ChildProcess | undefined;
    try {
      const [, url] = await waitFor(server, /serving at (http:\S+)/);
      const client = new Client({ name: 'prometheus-test', version: '1.0.0' });
      await client.connect(createStreamableHttpClientTransport(url ?? ''));
      expect((await client.callTool('echo', { message: 'hi' })).isError).toBeFalsy();
      await client.close();
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${config}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${String(webPort)}`,
        ],
        { stdio: 'ignore' },
      );
      const query = `http://127.0.0.1:${String(webPort)}/api/v1/query?query=${encodeURIComponent(
        'mcp_server_operation_duration_seconds_count{gen_ai_tool_name="echo"}',
      )}`;
      const read = async (): Promise<Query['data']['result']> => {
        try {
          const response = await fetch(query);
          return response.ok ? ((await response.json()) as Query).data.result : [];
        } catch {
          return []; // not listening yet
        }
      };
      await expect
        .poll(async () => (await read()).length, { timeout: 30_000, interval: 500 })
        .toBe(1);
      const [series] = await read();
      expect(series?.metric).toMatchObject({ job: 'mcpkit', mcp_method_name: 'tools/call' });
      expect(series?.value[1]).toBe('1');
    } finally {
      prometheus?.kill('SIGTERM');
      server.kill('SIGTERM');
      await collect(server);
      const running = prometheus;
      if (running !== undefined && running.exitCode === null) {
        await new Promise((resolve) => running.once('exit', resolve));
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
