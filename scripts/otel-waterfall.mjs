#!/usr/bin/env node
// Draws one trace as a waterfall (SVG): the spans an OTLP receiver got, as test/cli/otel.test.ts
// writes them with MCPKIT_OTEL_SPANS_OUT (a JSON list of { service, span }, span in OTLP/JSON).
// Each row is a span, indented under its parent, its bar placed on the trace's time line and
// coloured by service. docs/images/otel-waterfall.svg is made so (docs/observability.md):
//
//   MCPKIT_OTEL_SPANS_OUT=/tmp/spans.json npx vitest run test/cli/otel.test.ts -t 'mcpkit chat'
//   node scripts/otel-waterfall.mjs /tmp/spans.json docs/images/otel-waterfall.svg
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  console.error('usage: node scripts/otel-waterfall.mjs <spans.json> <out.svg>');
  process.exit(2);
}

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#b07aa1'];
const ROW = 26;
const LABEL = 430;
const BAR = 470;
const TOP = 56;

/** @type {{ service: string, span: Record<string, any> }[]} */
const received = JSON.parse(readFileSync(input, 'utf8'));
const spans = received.map(({ service, span }) => ({
  service,
  id: span.spanId,
  parent: span.parentSpanId || undefined,
  name: span.name,
  kind: KINDS[span.kind] ?? String(span.kind),
  start: BigInt(span.startTimeUnixNano),
  end: BigInt(span.endTimeUnixNano),
}));
if (spans.length === 0) {
  console.error(`${input} holds no spans`);
  process.exit(1);
}

// Depth-first from the roots, children by start time.
const ids = new Set(spans.map((s) => s.id));
const children = new Map();
for (const span of spans) {
  const key = span.parent !== undefined && ids.has(span.parent) ? span.parent : 'root';
  if (!children.has(key)) children.set(key, []);
  children.get(key).push(span);
}
for (const list of children.values()) list.sort((a, b) => (a.start < b.start ? -1 : 1));
const rows = [];
const visit = (key, depth) => {
  for (const span of children.get(key) ?? []) {
    rows.push({ span, depth });
    visit(span.id, depth + 1);
  }
};
visit('root', 0);

const t0 = spans.reduce((min, s) => (s.start < min ? s.start : min), spans[0].start);
const t1 = spans.reduce((max, s) => (s.end > max ? s.end : max), spans[0].end);
const total = Number(t1 - t0) / 1e6; // ms
const x = (t) => LABEL + (Number(t - t0) / 1e6 / total) * BAR;
const services = [...new Set(spans.map((s) => s.service))];
const colour = (service) => COLOURS[services.indexOf(service) % COLOURS.length];
const escape = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const width = LABEL + BAR + 90;
const height = TOP + rows.length * ROW + 40;
const out = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="12">`,
  `<rect width="100%" height="100%" fill="#ffffff"/>`,
  `<text x="12" y="22" font-size="14" font-weight="bold">One trace: mcpkit chat → mcpkit gateway → mcpkit serve pingme (${total.toFixed(1)} ms)</text>`,
];
services.forEach((service, i) => {
  const lx = 12 + i * 170;
  out.push(`<rect x="${lx}" y="34" width="12" height="12" fill="${colour(service)}"/>`);
  out.push(`<text x="${lx + 18}" y="44">${escape(service)}</text>`);
});
rows.forEach(({ span, depth }, i) => {
  const y = TOP + i * ROW;
  if (i % 2 === 0) {
    out.push(`<rect x="0" y="${y}" width="${width}" height="${ROW}" fill="#f5f6f8"/>`);
  }
  const label = `${span.name} (${span.kind})`;
  out.push(`<text x="${12 + depth * 16}" y="${y + 17}">${escape(label)}</text>`);
  const left = x(span.start);
  const barWidth = Math.max(2, x(span.end) - left);
  out.push(
    `<rect x="${left.toFixed(1)}" y="${y + 6}" width="${barWidth.toFixed(1)}" height="${ROW - 12}" rx="2" fill="${colour(span.service)}"/>`,
  );
  const ms = Number(span.end - span.start) / 1e6;
  out.push(
    `<text x="${(left + barWidth + 6).toFixed(1)}" y="${y + 17}" fill="#444">${ms.toFixed(1)} ms</text>`,
  );
});
const axis = TOP + rows.length * ROW + 8;
out.push(`<line x1="${LABEL}" y1="${axis}" x2="${LABEL + BAR}" y2="${axis}" stroke="#888"/>`);
for (let i = 0; i <= 4; i++) {
  const ax = LABEL + (BAR * i) / 4;
  out.push(`<line x1="${ax}" y1="${axis}" x2="${ax}" y2="${axis + 5}" stroke="#888"/>`);
  out.push(
    `<text x="${ax}" y="${axis + 18}" text-anchor="middle" fill="#444">${((total * i) / 4).toFixed(0)} ms</text>`,
  );
}
out.push('</svg>', '');
writeFileSync(output, out.join('\n'));
console.log(`${output}: ${String(rows.length)} spans, ${String(services.length)} services`);
