// Parameter values written as OpenAPI's `style` and `explode` say (OpenAPI 3.1 section 4.8.12.4):
// path `simple`, `label`, `matrix`; query `form`, `spaceDelimited`, `pipeDelimited`,
// `deepObject`; header `simple`; cookie `form`. Reserved characters are percent-encoded unless
// the parameter allows them.
import type { PlannedParameter } from './types.js';

type Primitive = string | number | boolean | null;

function text(value: unknown): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function encoder(parameter: PlannedParameter): (value: string) => string {
  if (parameter.in === 'header') return (value) => value;
  if (parameter.allowReserved) {
    return (value) => encodeURI(value).replace(/[#&=+]/g, (c) => encodeURIComponent(c));
  }
  return encodeURIComponent;
}

function entries(value: object): [string, Primitive][] {
  return Object.entries(value).map(([k, v]) => [
    k,
    (typeof v === 'object' && v !== null ? JSON.stringify(v) : v) as Primitive,
  ]);
}

/** The path segment for a path parameter's value. */
export function pathValue(parameter: PlannedParameter, value: unknown): string {
  const enc = encoder(parameter);
  if (parameter.json) return enc(JSON.stringify(value));
  const { style, explode, name } = parameter;
  const prefix = style === 'label' ? '.' : style === 'matrix' ? `;` : '';
  if (Array.isArray(value)) {
    const items = value.map((item) => enc(text(item)));
    if (style === 'matrix') {
      return explode
        ? items.map((item) => `;${name}=${item}`).join('')
        : `;${name}=${items.join(',')}`;
    }
    return `${prefix}${items.join(explode && style === 'label' ? '.' : ',')}`;
  }
  if (typeof value === 'object' && value !== null) {
    const pairs = entries(value);
    if (explode) {
      const joined = pairs.map(([k, v]) => `${enc(k)}=${enc(text(v))}`);
      if (style === 'matrix') return joined.map((pair) => `;${pair}`).join('');
      return `${prefix}${joined.join(style === 'label' ? '.' : ',')}`;
    }
    const flat = pairs.flatMap(([k, v]) => [enc(k), enc(text(v))]).join(',');
    return style === 'matrix' ? `;${name}=${flat}` : `${prefix}${flat}`;
  }
  return style === 'matrix' ? `;${name}=${enc(text(value))}` : `${prefix}${enc(text(value))}`;
}

/** The query string pieces (`name=value`, encoded) of a query parameter's value. */
export function queryPairs(parameter: PlannedParameter, value: unknown): string[] {
  const enc = encoder(parameter);
  const { style, explode, name } = parameter;
  const key = encodeURIComponent(name);
  if (parameter.json) return [`${key}=${enc(JSON.stringify(value))}`];
  const separator = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
  if (Array.isArray(value)) {
    const items = value.map((item) => enc(text(item)));
    // Exploded, every array style repeats the name (form, and the delimited ones alike).
    if (explode) return items.map((item) => `${key}=${item}`);
    return [`${key}=${items.join(separator)}`];
  }
  if (typeof value === 'object' && value !== null) {
    const pairs = entries(value);
    if (style === 'deepObject') {
      return pairs.map(([k, v]) => `${key}%5B${encodeURIComponent(k)}%5D=${enc(text(v))}`);
    }
    if (explode) return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${enc(text(v))}`);
    return [`${key}=${pairs.flatMap(([k, v]) => [enc(k), enc(text(v))]).join(separator)}`];
  }
  return [`${key}=${enc(text(value))}`];
}

/**
 * The `name=value` pairs of a cookie parameter (form style): an array or object exploded is one
 * cookie per item, else one cookie whose items are joined by commas; each value percent-encoded.
 */
export function cookiePairs(parameter: PlannedParameter, value: unknown): string[] {
  const { name, explode } = parameter;
  if (parameter.json) return [`${name}=${encodeURIComponent(JSON.stringify(value))}`];
  if (Array.isArray(value)) {
    const items = value.map((item) => encodeURIComponent(text(item)));
    return explode ? items.map((item) => `${name}=${item}`) : [`${name}=${items.join(',')}`];
  }
  if (typeof value === 'object' && value !== null) {
    const pairs = entries(value).map(([k, v]) => [k, encodeURIComponent(text(v))] as const);
    return explode
      ? pairs.map(([k, v]) => `${k}=${v}`)
      : [`${name}=${pairs.flatMap(([k, v]) => [encodeURIComponent(k), v]).join(',')}`];
  }
  return [`${name}=${encodeURIComponent(text(value))}`];
}

/** A header's value (simple style). */
export function headerValue(parameter: PlannedParameter, value: unknown): string {
  if (parameter.json) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map(text).join(',');
  if (typeof value === 'object' && value !== null) {
    const pairs = entries(value);
    return parameter.explode
      ? pairs.map(([k, v]) => `${k}=${text(v)}`).join(',')
      : pairs.flatMap(([k, v]) => [k, text(v)]).join(',');
  }
  return text(value);
}
