// The Content-Security-Policy of an MCP App's view, as a host builds it (io.modelcontextprotocol/ui, 2026-01-26,
// "Content Security Policy Enforcement"), built from the `_meta.ui.csp` of its resource: the
// spec's restrictive default when none is declared, never looser than what is declared, and the
// permission policy (`allow`) of its `permissions`. Entries that are not plain origins are
// dropped (stricter), and reported.

import type { AppCsp } from './protocol.js';

/** The CSP keys of {@link AppCsp}. */
const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/**
 * The spec's policy when `ui.csp` is omitted (its "Restrictive Default"), plus what the sandbox
 * section asks for in every case: `frame-src 'none'`, `object-src 'none'`, `base-uri 'self'`.
 */
export const DEFAULT_APP_CSP: string =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; " +
  "object-src 'none'; base-uri 'self'";

/**
 * An origin a view may declare: http(s) or ws(s), a host name (its first label may be `*`, for
 * subdomains) or an IP address, an optional port. Anything else (a bare scheme such as `https:`,
 * `*`, a keyword, a path, a separator) would widen the policy or break it, and is dropped.
 */
const ORIGIN =
  /^(?:https?|wss?):\/\/(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$|^(?:https?|wss?):\/\/\[[0-9a-f:.]+\](?::\d{1,5})?$/i;

/** A view's `csp` checked: the origins kept, by key, and the entries dropped. */
export interface CheckedCsp {
  csp: AppCsp | undefined;
  dropped: string[];
}

/** Reads `ui.csp` as declared (any JSON): keeps the plain origins of each known key. */
export function checkCsp(value: unknown): CheckedCsp {
  if (!isRecord(value)) return { csp: undefined, dropped: value === undefined ? [] : ['csp'] };
  const csp: Record<(typeof CSP_KEYS)[number], string[] | undefined> = {
    connectDomains: undefined,
    resourceDomains: undefined,
    frameDomains: undefined,
    baseUriDomains: undefined,
  };
  const dropped: string[] = [];
  for (const key of CSP_KEYS) {
    const list = value[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      dropped.push(key);
      continue;
    }
    const kept: string[] = [];
    for (const entry of list) {
      if (typeof entry === 'string' && ORIGIN.test(entry)) kept.push(entry.toLowerCase());
      else dropped.push(`${key}: ${JSON.stringify(entry)}`);
    }
    csp[key] = [...new Set(kept)];
  }
  const declared = Object.fromEntries(Object.entries(csp).filter(([, list]) => list !== undefined));
  return { csp: declared, dropped };
}

/**
 * The Content-Security-Policy a host applies to a view whose resource declares `csp` (any JSON,
 * as the server sent it): {@link checkCsp}, then {@link buildCsp}. The spec's restrictive default
 * when there is none; never looser than declared.
 */
export function viewCsp(csp: unknown): string {
  return buildCsp(checkCsp(csp).csp);
}

/**
 * The policy of a view whose resource declares `csp` (already checked): the spec's construction,
 * except that `connect-src` holds the declared origins only (no `'self'`: the sandbox's own
 * origin is not the view's to call), and `'none'` when none is declared.
 */
export function buildCsp(csp: AppCsp | undefined): string {
  if (csp === undefined) return DEFAULT_APP_CSP;
  const resources = (csp.resourceDomains ?? []).join(' ');
  const list = (base: string, extra: string) => (extra === '' ? base : `${base} ${extra}`);
  const connect = (csp.connectDomains ?? []).join(' ');
  const frames = (csp.frameDomains ?? []).join(' ');
  const bases = (csp.baseUriDomains ?? []).join(' ');
  return [
    "default-src 'none'",
    `script-src ${list("'self' 'unsafe-inline'", resources)}`,
    `style-src ${list("'self' 'unsafe-inline'", resources)}`,
    `connect-src ${connect === '' ? "'none'" : connect}`,
    `img-src ${list("'self' data:", resources)}`,
    `font-src ${list("'self'", resources)}`,
    `media-src ${list("'self' data:", resources)}`,
    `frame-src ${frames === '' ? "'none'" : frames}`,
    "object-src 'none'",
    `base-uri ${bases === '' ? "'self'" : bases}`,
  ].join('; ');
}

/** The permission-policy features a view may ask for, by `permissions` key. */
const FEATURES: Readonly<Record<string, string>> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The iframe `allow` attribute of `permissions` (features the view did not ask for stay off). */
export function allowAttribute(permissions: unknown): string {
  if (!isRecord(permissions)) return '';
  return Object.keys(FEATURES)
    .filter((key) => isRecord(permissions[key]))
    .map((key) => FEATURES[key])
    .join('; ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
