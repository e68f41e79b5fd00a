// The context bench's workload: fifteen in-process servers (the reference servers everything,
// pingme, sql and utilix, and eleven generated ones), about two hundred tools, and five scripted
// tasks of two to four tool calls each, one of them data-heavy (a thousand SQL rows).
import { createMemoryPair } from '../../src/transports/memory.js';
import type { McpServer } from '../../src/server/index.js';
import type { ServerConfig } from '../../src/host/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';
import { createPingmeServer } from '../../servers/pingme/server.js';
import { createSqlServer } from '../../servers/sql/server.js';
import { createUtilixServer } from '../../servers/utilix/server.js';
import { GENERATED, createGeneratedServer } from './generated.js';
import type { Task, Workload } from './types.js';

/** The tasks, in the order the bench plays them. */
export const TASKS: readonly Task[] = [
  {
    id: 'triage',
    prompt:
      'Find the GitHub issue about the crash on start-up, file a high-priority OPS ticket for it and tell #ops.',
    steps: [
      {
        server: 'github',
        tool: 'search_issues',
        arguments: { query: 'crash on start-up', limit: 3 },
        query: 'github search issues',
      },
      {
        server: 'jira',
        tool: 'create_ticket',
        arguments: { summary: 'Crash on start-up (issue_1)', priority: 'high', project_key: 'OPS' },
        query: 'jira create ticket',
      },
      {
        server: 'slack',
        tool: 'create_message',
        arguments: { channel: '#ops', text: 'Filed OPS ticket_7 for the start-up crash.' },
        query: 'slack post message channel',
      },
    ],
    answer: 'Filed ticket_7 and told #ops.',
  },
  {
    id: 'incident',
    prompt:
      'Open an incident for the firing alerts, book a review meeting tomorrow and mail the team.',
    steps: [
      {
        server: 'monitoring',
        tool: 'list_alerts',
        arguments: { state: 'firing' },
        query: 'monitoring alerts firing',
      },
      {
        server: 'monitoring',
        tool: 'create_incident',
        arguments: { title: 'Checkout latency', commander: 'ana' },
        query: 'create incident',
      },
      {
        server: 'calendar',
        tool: 'create_event',
        arguments: {
          summary: 'Incident review',
          start: '2026-11-28T10:00:00+01:00',
          end: '2026-11-28T10:30:00+01:00',
        },
        query: 'calendar create event meeting',
      },
      {
        server: 'mail',
        tool: 'create_email',
        arguments: {
          to: ['team@example.com'],
          subject: 'Incident review',
          body: 'Tomorrow 10:00.',
        },
        query: 'send email',
      },
    ],
    answer: 'Incident incident_7 is open, the review is booked and the team is told.',
  },
  {
    id: 'refund',
    prompt: "Refund Ada Lovelace's last paid invoice.",
    steps: [
      {
        server: 'crm',
        tool: 'search_contacts',
        arguments: { query: 'Ada Lovelace' },
        query: 'crm search contacts',
      },
      {
        server: 'billing',
        tool: 'list_invoices',
        arguments: { state: 'paid', per_page: 5 },
        query: 'billing invoices paid',
      },
      {
        server: 'billing',
        tool: 'create_refund',
        arguments: { charge_id: 'ch_1', reason: 'requested_by_customer' },
        query: 'billing refund charge',
      },
    ],
    answer: 'Refunded invoice_1.',
  },
  {
    id: 'deploy',
    prompt: 'Which deployment has failing pods? Open a GitHub issue for it.',
    steps: [
      {
        server: 'k8s',
        tool: 'list_pods',
        arguments: { state: 'failed' },
        query: 'kubernetes pods failed',
      },
      {
        server: 'k8s',
        tool: 'get_deployment',
        arguments: { id: 'deployment_1' },
        query: 'kubernetes get deployment',
      },
      {
        server: 'github',
        tool: 'create_issue',
        arguments: { title: 'deployment_1 pods failing', labels: ['bug'] },
        query: 'github create issue',
      },
    ],
    answer: 'deployment_1 has failing pods; issue_7 is open.',
  },
  {
    id: 'revenue',
    prompt: 'What is the revenue of all order lines, quantity times unit price, summed?',
    steps: [
      {
        server: 'sql',
        tool: 'query',
        arguments: {
          sql: 'SELECT order_id, line_no, product_id, quantity, unit_price FROM order_lines ORDER BY order_id, line_no',
          maxRows: 1000,
        },
        query: 'sql query database',
      },
    ],
    answer: 'The revenue is the sum of quantity × unit_price over the rows.',
    dataHeavy: true,
  },
];

/** Starts the servers. The sql server opens the embedded PGlite shop dataset (a few seconds). */
export async function createWorkload(): Promise<Workload> {
  const sql = await createSqlServer();
  const everything = createEverythingServer();
  const servers: Record<string, McpServer> = {
    everything: everything.server,
    pingme: createPingmeServer(),
    sql: sql.server,
    utilix: createUtilixServer(),
    ...Object.fromEntries(GENERATED.map((name) => [name, createGeneratedServer(name)])),
  };
  const configs: Record<string, ServerConfig> = Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [
      name,
      {
        transport: () => {
          const [client, end] = createMemoryPair();
          void server.connect(end);
          return client;
        },
      },
    ]),
  );
  let toolCount = 0;
  for (const server of Object.values(servers)) toolCount += await countTools(server);
  return {
    servers: configs,
    tasks: TASKS,
    toolCount,
    close: async () => {
      await everything.close();
      await sql.close();
      await Promise.all(Object.values(servers).map((server) => server.close()));
    },
  };
}

async function countTools(server: McpServer): Promise<number> {
  const { Client } = await import('../../src/client/index.js');
  const [client, end] = createMemoryPair();
  void server.connect(end);
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(client);
  const tools = await c.listTools();
  await c.close();
  return tools.length;
}
