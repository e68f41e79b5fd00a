// everything's MCP Apps (mcpkit/apps): two views a host that renders Apps shows after a call. The
// sum form (linked to get-sum) shows the call's numbers and result and adds again from the view
// through the host (tools/call get-sum); the weather chart (linked to get-structured-content)
// draws the structured result as bars and asks for another city from the view. Each view speaks
// the Apps bridge by hand (JSON-RPC over postMessage: ui/initialize, the tool's input and result,
// size changes), in a few lines, with no SDK and no outside resource: the restrictive CSP holds.
import type { AppsExtension, ToolUi } from '../../src/ext/apps/index.js';
import { apps } from '../../src/ext/apps/index.js';
import { WEATHER_LOCATIONS } from './logic.js';

/** What links everything's tools to their views (a tool definition's `_meta`). */
export interface EverythingViews {
  readonly sum: { ui: ToolUi };
  readonly weather: { ui: ToolUi };
}

/** The Apps bridge both views share: a request/notify pair, the handshake and size reports. */
const BRIDGE = `
const pending = new Map();
let nextId = 1;
const post = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
const request = (method, params) => new Promise((resolve, reject) => {
  const id = nextId++;
  pending.set(id, { resolve, reject });
  post({ id, method, params });
});
const notify = (method, params) => post({ method, params });
const handlers = {};
window.addEventListener('message', (event) => {
  const message = event.data;
  if (event.source !== window.parent || message?.jsonrpc !== '2.0') return;
  if (message.method === undefined) {
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiting?.reject(new Error(message.error.message));
    else waiting?.resolve(message.result);
    return;
  }
  if (Object.hasOwn(handlers, message.method)) handlers[message.method](message.params ?? {});
  if (message.id !== undefined) post({ id: message.id, result: {} });
});
const textOf = (result) =>
  (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\\n');
async function start(name) {
  const init = await request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name, version: '1.0.0' },
    appCapabilities: { availableDisplayModes: ['inline'] },
  });
  if (init?.hostContext?.theme === 'dark') document.documentElement.classList.add('dark');
  notify('ui/notifications/initialized', {});
  new ResizeObserver(() => {
    const { scrollWidth: width, scrollHeight: height } = document.documentElement;
    notify('ui/notifications/size-changed', { width, height });
  }).observe(document.body);
}
`;

const STYLE = `
:root { color-scheme: light dark; font: 14px/1.4 var(--font-sans, system-ui, sans-serif); }
body { margin: 12px; }
.dark body { background: #171717; color: #fafafa; }
input, select, button { font: inherit; padding: 4px 8px; }
input { width: 6em; }
output { display: block; margin-top: 8px; font-weight: 600; }
.bar { height: 18px; background: var(--color-background-info, #3b82f6); margin: 4px 0; }
`;

function page(title: string, body: string, script: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style></head><body>${body}<script>${BRIDGE}${script}</script></body></html>`;
}

const SUM_FORM = page(
  'Sum',
  `<p><input id="a" type="number" value="1" step="any" aria-label="a"> +
<input id="b" type="number" value="2" step="any" aria-label="b">
<button id="add" type="button">Add</button></p><output id="result"></output>`,
  `
const $ = (id) => document.getElementById(id);
handlers['ui/notifications/tool-input'] = ({ arguments: args }) => {
  if (typeof args?.a === 'number') $('a').value = String(args.a);
  if (typeof args?.b === 'number') $('b').value = String(args.b);
};
handlers['ui/notifications/tool-result'] = (result) => { $('result').textContent = textOf(result); };
// No <form>: a host's sandbox need not allow forms (the spec's is allow-scripts allow-same-origin),
// and without allow-forms a submit never fires. Enter in a field adds, as a form would.
async function add() {
  $('result').textContent = '…';
  try {
    const result = await request('tools/call', {
      name: 'get-sum', arguments: { a: Number($('a').value), b: Number($('b').value) },
    });
    $('result').textContent = textOf(result);
  } catch (error) {
    $('result').textContent = 'Failed: ' + error.message;
  }
}
$('add').addEventListener('click', add);
for (const id of ['a', 'b']) {
  $(id).addEventListener('keydown', (event) => { if (event.key === 'Enter') void add(); });
}
start('everything-sum-form');
`,
);

const WEATHER_CHART = page(
  'Weather',
  `<select id="city" aria-label="city">${WEATHER_LOCATIONS.map((c) => `<option>${c}</option>`).join('')}</select>
<div id="chart"></div><output id="conditions"></output>`,
  `
const $ = (id) => document.getElementById(id);
function draw(data) {
  if (typeof data?.temperature !== 'number') return;
  const rows = [['Temperature °C', data.temperature, 50], ['Humidity %', data.humidity, 100]];
  $('chart').replaceChildren(...rows.map(([label, value, max]) => {
    const row = document.createElement('div');
    const bar = document.createElement('div');
    bar.className = 'bar';
    bar.style.width = Math.max(0, Math.min(100, (value / max) * 100)) + '%';
    row.append(label + ': ' + value, bar);
    return row;
  }));
  $('conditions').textContent = data.conditions ?? '';
}
handlers['ui/notifications/tool-input'] = ({ arguments: args }) => {
  if (typeof args?.location === 'string') $('city').value = args.location;
};
handlers['ui/notifications/tool-result'] = (result) => draw(result.structuredContent);
$('city').addEventListener('change', async () => {
  const result = await request('tools/call', {
    name: 'get-structured-content', arguments: { location: $('city').value },
  });
  draw(result.structuredContent);
});
start('everything-weather-chart');
`,
);

/**
 * Declares everything's two views: gives what links the tools to them, and the extension to add
 * to the server (its views are listed from then on, after the demo resources).
 */
export function everythingApps(): { views: EverythingViews; extension: AppsExtension } {
  const ui = apps();
  const sum = ui.view({
    uri: 'ui://everything/sum-form',
    name: 'sum-form',
    title: 'Sum form',
    description: 'Adds two numbers with get-sum, from the view.',
    html: SUM_FORM,
    prefersBorder: true,
  });
  const weather = ui.view({
    uri: 'ui://everything/weather-chart',
    name: 'weather-chart',
    title: 'Weather chart',
    description: "Draws get-structured-content's result as bars.",
    html: WEATHER_CHART,
    prefersBorder: true,
  });
  return { views: { sum: sum.link(), weather: weather.link() }, extension: ui };
}
