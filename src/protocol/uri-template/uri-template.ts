// RFC 6570 URI templates (levels 1-4) for MCP resource templates: parsing with precise errors,
// expansion, and matching a concrete URI back to its variables for `resources/read` dispatch.
// Spec 2025-11-25 server/resources#resource-templates; RFC 6570 (https://www.rfc-editor.org/rfc/rfc6570).
//
// Matching inverts expansion where RFC 6570 allows it (the RFC itself notes it is not always
// possible). The rules, in short:
// - Variables in path position (`{var}`, `{.var}`, `{/var}`, `{;var}`) never yield a `/`, not even
//   a percent-encoded one, so a value cannot walk out of its segment. `{+var}` and `{#var}` can.
// - A trailing run of `{?…}` / `{&…}` expressions matches query parameters in any order; every one
//   is optional and unknown parameters are ignored.
// - Values are percent-decoded; malformed percent-encoding makes the URI not match (never throws).
// - Earlier variables take the shortest text that lets the rest of the template match; in a
//   multi-variable expression (`{x,y}`) only trailing variables may be missing.
// - Non-exploded lists come back as one string (`{list}` gives "red,green,blue"); records
//   (`{keys*}`) do not round-trip; a `+` in a query value stays a `+` (RFC 3986, not forms).
// - Matching is linear in the URI's length (no RegExp, so no ReDoS); see machine.ts.
import { compile } from './compile.js';
import type { Matcher } from './compile.js';
import type { UriTemplateVariables } from './expand.js';
import { expandTemplate } from './expand.js';
import type { UriTemplateMatch } from './match.js';
import { matchUri } from './match.js';
import { parseTemplate } from './parse.js';
import type { Part } from './syntax.js';

/**
 * UriTemplate is a parsed RFC 6570 URI template (levels 1-4). It expands variables into a URI
 * and matches a URI back to variables. Instances are immutable and safe to share.
 */
export class UriTemplate {
  /** The template text, as given to {@link UriTemplate.parse}. */
  readonly template: string;
  /** The distinct variable names, in order of first appearance. */
  readonly variableNames: readonly string[];
  readonly #parts: readonly Part[];
  readonly #matcher: Matcher;

  private constructor(template: string, parts: readonly Part[]) {
    this.template = template;
    this.#parts = parts;
    const names = parts.flatMap((part) => (typeof part === 'string' ? [] : part.vars));
    this.variableNames = Object.freeze([...new Set(names.map((v) => v.name))]);
    this.#matcher = compile(parts);
  }

  /**
   * Parses a template. Throws a TypeError naming the position (a 0-based index into the template)
   * and the reason when the template is invalid: an unclosed or nested brace, a stray `}`, an
   * empty expression, a reserved or unknown operator, a bad variable name, or a prefix modifier
   * outside 1..9999.
   */
  static parse(template: string): UriTemplate {
    return new UriTemplate(template, parseTemplate(template));
  }

  /**
   * Expands the template (RFC 6570 section 3). Missing and `undefined` variables, empty lists and
   * empty records are skipped. A prefix modifier (`:n`) applies to string values only.
   */
  expand(variables: UriTemplateVariables): string {
    return expandTemplate(this.#parts, variables);
  }

  /**
   * Matches a whole URI against the template and returns the decoded variables, or undefined when
   * it does not match. Variables absent from the URI are absent from the result. An exploded
   * variable (`{/path*}`, `{?tag*}`) yields a string[]; every other variable yields a string.
   * Runs in O(template x URI length); URIs longer than 64 KiB (65,536 code units) never match.
   */
  match(uri: string): UriTemplateMatch | undefined {
    return matchUri(this.#matcher, uri);
  }

  /** Returns the template text. */
  toString(): string {
    return this.template;
  }
}

/** Reports whether `s` is a valid URI template with at least one expression. */
export function isUriTemplate(s: string): boolean {
  try {
    return UriTemplate.parse(s).variableNames.length > 0;
  } catch {
    return false;
  }
}
