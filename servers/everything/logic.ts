// everything's domain logic, with no MCP in it: the demo data (weather, documents, dynamic
// resources, cities), the long-running operation and research simulations, and gzip. The MCP
// wiring in server.ts, tools.ts and content.ts turns these into tools, resources and prompts.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/** A 1x1 PNG, base64-encoded: the smallest image a client can render. */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** The sentence get-sum answers with. */
export function describeSum(a: number, b: number): string {
  return `The sum of ${String(a)} and ${String(b)} is ${String(a + b)}.`;
}

/** The locations get-structured-content knows. */
export const WEATHER_LOCATIONS = ['New York', 'Chicago', 'Los Angeles'] as const;

/** One of {@link WEATHER_LOCATIONS}. */
export type WeatherLocation = (typeof WEATHER_LOCATIONS)[number];

/** A weather report, as get-structured-content's output schema describes it. */
export interface Weather {
  /** Degrees Celsius. */
  temperature: number;
  conditions: string;
  /** Relative humidity, percent. */
  humidity: number;
}

const WEATHER: Readonly<Record<WeatherLocation, Weather>> = {
  'New York': { temperature: 22.5, conditions: 'Partly cloudy', humidity: 65 },
  Chicago: { temperature: 18, conditions: 'Light rain', humidity: 82 },
  'Los Angeles': { temperature: 28, conditions: 'Sunny', humidity: 48 },
};

/** The (fixed, simulated) weather at `location`. */
export function weatherAt(location: WeatherLocation): Weather {
  return { ...WEATHER[location] };
}

/** Annotations of a content block (spec: `priority` 0–1, `audience` user/assistant). */
export interface ContentAnnotations {
  priority: number;
  audience: ('user' | 'assistant')[];
}

/** The kinds of message get-annotated-message builds. */
export const MESSAGE_TYPES = ['error', 'success', 'debug'] as const;

/** One of {@link MESSAGE_TYPES}. */
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** The text and annotations of an annotated message of `type`. */
export function annotatedMessage(type: MessageType): {
  text: string;
  annotations: ContentAnnotations;
} {
  switch (type) {
    case 'error':
      return {
        text: 'Error: the operation failed.',
        annotations: { priority: 1, audience: ['user', 'assistant'] },
      };
    case 'success':
      return {
        text: 'The operation completed successfully.',
        annotations: { priority: 0.7, audience: ['user'] },
      };
    case 'debug':
      return {
        text: 'Debug: cache hit ratio 0.95, latency 150 ms.',
        annotations: { priority: 0.3, audience: ['assistant'] },
      };
  }
}

/** Returns the variables of `env` named in `allowList` that are set, and nothing else. */
export function allowedEnv(
  env: Readonly<Record<string, string | undefined>>,
  allowList: readonly string[],
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of allowList) {
    const value = env[name];
    if (typeof value === 'string' && Object.hasOwn(env, name)) picked[name] = value;
  }
  return picked;
}

/** A static document served as a resource. */
export interface DemoDocument {
  name: string;
  title: string;
  mimeType: string;
  /** Text, or base64 for binary documents. */
  text?: string;
  blob?: string;
}

/** The static documents, served at `demo://resource/static/document/<name>`. */
export const DOCUMENTS: readonly DemoDocument[] = [
  {
    name: 'readme.md',
    title: 'About this server',
    mimeType: 'text/markdown',
    text: [
      '# everything',
      '',
      'A reference MCP server that exercises every protocol feature: tools, resources,',
      'resource templates, prompts, completions, subscriptions, logging, progress,',
      'cancellation, elicitation and sampling.',
    ].join('\n'),
  },
  {
    name: 'settings.json',
    title: 'Sample settings',
    mimeType: 'application/json',
    text: JSON.stringify({ theme: 'dark', fontSize: 14, telemetry: false }, null, 2),
  },
  {
    name: 'notes.txt',
    title: 'Plain-text notes',
    mimeType: 'text/plain',
    text: 'Remember: resources are read by the client; tools are called by the model.',
  },
  { name: 'pixel.png', title: 'A 1x1 image', mimeType: 'image/png', blob: TINY_PNG_BASE64 },
];

/** The URI of the static document `name`. */
export function documentUri(name: string): string {
  return `demo://resource/static/document/${name}`;
}

/** Dynamic resources: `demo://resource/dynamic/{text|blob}/{id}`, id 1 to {@link MAX_DYNAMIC_ID}. */
export const MAX_DYNAMIC_ID = 100;

/** How many dynamic resources of each kind `resources/list` shows. */
export const LISTED_DYNAMIC = 5;

/** A dynamic resource's kind. */
export type DynamicKind = 'text' | 'blob';

/** The URI of dynamic resource `id` of `kind`. */
export function dynamicUri(kind: DynamicKind, id: number): string {
  return `demo://resource/dynamic/${kind}/${String(id)}`;
}

/** Parses a dynamic resource id; undefined unless it is an integer from 1 to MAX_DYNAMIC_ID. */
export function parseDynamicId(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || !/^[1-9][0-9]*$/.test(raw)) return undefined;
  const id = Number(raw);
  return id <= MAX_DYNAMIC_ID ? id : undefined;
}

/** The text of dynamic text resource `id` at `revision` (revisions advance with simulated updates). */
export function dynamicText(id: number, revision: number): string {
  return `Dynamic text resource ${String(id)}, revision ${String(revision)}.`;
}

/** The bytes of dynamic blob resource `id` at `revision`: 16 bytes derived from both. */
export function dynamicBlob(id: number, revision: number): Uint8Array {
  const bytes = new Uint8Array(16);
  let x = (id * 2654435761 + revision * 40503) >>> 0;
  for (let i = 0; i < bytes.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/** Completes an id from 1 to MAX_DYNAMIC_ID by prefix. */
export function completeDynamicId(prefix: string): string[] {
  const ids: string[] = [];
  for (let id = 1; id <= MAX_DYNAMIC_ID; id++) {
    const text = String(id);
    if (text.startsWith(prefix)) ids.push(text);
  }
  return ids;
}

/** Cities args-prompt completes, with the states each is in. */
const CITIES: Readonly<Record<string, readonly string[]>> = {
  Austin: ['TX'],
  Boston: ['MA'],
  Chicago: ['IL'],
  Denver: ['CO'],
  'Los Angeles': ['CA'],
  Miami: ['FL'],
  'New York': ['NY'],
  Portland: ['OR', 'ME'],
  Seattle: ['WA'],
  Springfield: ['IL', 'MA', 'MO', 'OR'],
};

const STATES = [...new Set(Object.values(CITIES).flat())].sort();

/** Completes a city name by case-insensitive prefix. */
export function completeCity(prefix: string): string[] {
  const lower = prefix.toLowerCase();
  return Object.keys(CITIES).filter((city) => city.toLowerCase().startsWith(lower));
}

/** Completes a state by prefix; when `city` is known, only its states. */
export function completeState(prefix: string, city: string | undefined): string[] {
  const known = city === undefined ? undefined : CITIES[city];
  const upper = prefix.toUpperCase();
  return (known ?? STATES).filter((state) => state.startsWith(upper));
}

/** Gzips `bytes` (node:zlib; the output is byte-for-byte stable). */
export async function gzipBytes(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await gzipAsync(bytes));
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** A progress callback: step `done` of `total`. */
export type StepReporter = (done: number, total: number, message: string) => Promise<void>;

/**
 * Runs a simulated operation of `steps` equal steps over `durationMs`, reporting after each.
 * Stops at once when `signal` aborts, rejecting with an Error that says how far it got.
 */
export async function runLongOperation(
  plan: { durationMs: number; steps: number },
  signal: AbortSignal,
  report: StepReporter,
): Promise<string> {
  const { durationMs, steps } = plan;
  for (let step = 1; step <= steps; step++) {
    try {
      await sleep(durationMs / steps, signal);
    } catch {
      throw new Error(`operation cancelled after ${String(step - 1)} of ${String(steps)} steps`);
    }
    await report(step, steps, `Step ${String(step)} of ${String(steps)}`);
  }
  return `Long running operation completed: ${String(durationMs / 1000)} seconds, ${String(steps)} steps.`;
}

/** How deep simulate-research-query goes. */
export const RESEARCH_DEPTHS = ['overview', 'detailed', 'exhaustive'] as const;

/** One of {@link RESEARCH_DEPTHS}. */
export type ResearchDepth = (typeof RESEARCH_DEPTHS)[number];

/** The stages of a simulated research run. */
export function researchStages(depth: ResearchDepth): string[] {
  const sources = { overview: 3, detailed: 8, exhaustive: 20 }[depth];
  return [
    'Searching for sources',
    `Reading ${String(sources)} sources`,
    'Cross-checking findings',
    'Writing the summary',
  ];
}

/** The summary a simulated research run ends with. */
export function researchSummary(
  topic: string,
  clarified: { depth: ResearchDepth; focus?: string | undefined; note?: string },
): string {
  const focus =
    clarified.focus === undefined || clarified.focus === '' ? '' : `, focus: ${clarified.focus}`;
  const stages = researchStages(clarified.depth);
  const lines = [
    `Research summary for "${topic}" (depth: ${clarified.depth}${focus})`,
    ...stages.map((stage, i) => `${String(i + 1)}. ${stage}: done`),
    `Finding: "${topic}" is a simulated topic; this summary shows the shape of a multi-step result.`,
  ];
  if (clarified.note !== undefined) lines.push(clarified.note);
  return lines.join('\n');
}

/** Logging levels, least severe first (RFC 5424, as MCP uses them). */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** Picks a logging level from a random number in [0, 1). */
export function pickLevel(random: number): (typeof LOG_LEVELS)[number] {
  const index = Math.min(
    LOG_LEVELS.length - 1,
    Math.max(0, Math.floor(random * LOG_LEVELS.length)),
  );
  return LOG_LEVELS[index] ?? 'info';
}

/** Encodes bytes as base64. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
