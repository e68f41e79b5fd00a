// The gateway config's `rateLimits`: token buckets per principal, per tool (each principal's
// calls of a tool) and per upstream (every principal's calls together), and concurrency caps per
// upstream. Parsed here into plain rules; the Limiter (limiter.ts) applies them.

/** The period a bucket's rate is counted over. */
export type RatePeriod = 'second' | 'minute' | 'hour' | 'day';

const PERIOD_MS: Readonly<Record<RatePeriod, number>> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** One token bucket: `capacity` tokens, refilled at `rate` tokens per `periodMs`. */
export interface Bucket {
  /** The most calls at once after a quiet spell (the config's `burst`, default `rate`). */
  readonly capacity: number;
  /** Tokens added per `periodMs`. */
  readonly rate: number;
  readonly periodMs: number;
  /** How the bucket is named in a refusal: "60 a minute". */
  readonly label: string;
}

/** The rate limits of a gateway config; every field is optional (absent: no limit). */
export interface RateLimitRules {
  /** Every call of one principal. */
  readonly principal?: Bucket;
  /** Each principal's calls of the tools matching a name or glob (served names), first match. */
  readonly tools?: readonly { readonly pattern: string; readonly bucket: Bucket }[];
  /** All calls to an upstream, by server name. */
  readonly upstreams?: Readonly<Record<string, Bucket>>;
  /** Most calls in flight to an upstream (in this process), by server name. */
  readonly maxConcurrent?: Readonly<Record<string, number>>;
}

/**
 * Reads a config's `rateLimits`:
 * `{"principal": {"rate": 60, "per": "minute", "burst": 10},
 *   "tools": {"search_*": {"rate": 5, "per": "second"}},
 *   "upstreams": {"github": {"rate": 600, "per": "minute", "maxConcurrent": 8}}}`.
 * Throws TypeError naming the field at fault; `servers` are the config's server names (an
 * upstream limit for another name is a mistake).
 */
export function parseRateLimits(value: unknown, servers: readonly string[]): RateLimitRules {
  if (value === undefined) return {};
  const root = objectOf(value, 'the config "rateLimits"', '{"principal", "tools", "upstreams"}');
  const out: {
    principal?: Bucket;
    tools?: { pattern: string; bucket: Bucket }[];
    upstreams?: Record<string, Bucket>;
    maxConcurrent?: Record<string, number>;
  } = {};
  for (const [key, item] of Object.entries(root)) {
    const where = `the config "rateLimits.${key}"`;
    if (key === 'principal') out.principal = parseBucket(item, where, false).bucket;
    else if (key === 'tools') {
      out.tools = Object.entries(objectOf(item, where, '{"<tool or glob>": {...}}')).map(
        ([pattern, spec]) => ({
          pattern,
          bucket: parseBucket(spec, `${where}.${pattern}`, false).bucket,
        }),
      );
    } else if (key === 'upstreams') {
      out.upstreams = {};
      out.maxConcurrent = {};
      for (const [name, spec] of Object.entries(objectOf(item, where, '{"<server>": {...}}'))) {
        if (!servers.includes(name))
          throw new TypeError(`${where} names no server of the config: "${name}"`);
        const parsed = parseBucket(spec, `${where}.${name}`, true);
        if (parsed.bucket !== undefined) out.upstreams[name] = parsed.bucket;
        if (parsed.maxConcurrent !== undefined) out.maxConcurrent[name] = parsed.maxConcurrent;
      }
    } else {
      throw new TypeError(
        `the config "rateLimits" has an unknown field "${key}" (principal, tools, upstreams)`,
      );
    }
  }
  return out;
}

function objectOf(value: unknown, where: string, shape: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${where} is not an object (${shape})`);
  }
  return value as Record<string, unknown>;
}

function parseBucket(
  value: unknown,
  where: string,
  concurrency: true,
): { bucket?: Bucket; maxConcurrent?: number };
function parseBucket(value: unknown, where: string, concurrency: false): { bucket: Bucket };
function parseBucket(
  value: unknown,
  where: string,
  concurrency: boolean,
): { bucket?: Bucket; maxConcurrent?: number } {
  const fields = concurrency ? 'rate, per, burst, maxConcurrent' : 'rate, per, burst';
  const spec = objectOf(value, where, `{${fields}}`);
  for (const key of Object.keys(spec)) {
    if (!fields.split(', ').includes(key)) {
      throw new TypeError(`${where} has an unknown field "${key}" (${fields})`);
    }
  }
  const number = (key: string, integer: boolean): number | undefined => {
    const item = spec[key];
    if (item === undefined) return undefined;
    if (
      typeof item !== 'number' ||
      !(item > 0) ||
      !Number.isFinite(item) ||
      (integer && !Number.isSafeInteger(item))
    ) {
      throw new TypeError(`${where}.${key} is not a positive ${integer ? 'integer' : 'number'}`);
    }
    return item;
  };
  const maxConcurrent = number('maxConcurrent', true);
  const rate = number('rate', false);
  const burst = number('burst', true);
  const per = spec['per'] ?? 'minute';
  if (typeof per !== 'string' || !(per in PERIOD_MS)) {
    throw new TypeError(`${where}.per is not one of second, minute, hour, day`);
  }
  if (rate === undefined) {
    if (!concurrency || burst !== undefined || spec['per'] !== undefined) {
      throw new TypeError(`${where} has no "rate" (calls per "per")`);
    }
    if (maxConcurrent === undefined)
      throw new TypeError(`${where} has neither "rate" nor "maxConcurrent"`);
    return { maxConcurrent };
  }
  const capacity = burst ?? Math.max(1, Math.floor(rate));
  const bucket: Bucket = {
    capacity,
    rate,
    periodMs: PERIOD_MS[per as RatePeriod],
    label: `${String(rate)} per ${per}${burst === undefined ? '' : `, bursts of ${String(burst)}`}`,
  };
  return { bucket, ...(maxConcurrent === undefined ? {} : { maxConcurrent }) };
}
