// String and number keywords: minLength, maxLength, pattern, format; minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, multipleOf. Each check passes values of other types.
import { quote } from './describe.js';
import { FORMATS } from './formats.js';
import { readCount, readNumber, readRegExp, schemaError, type Scope } from './scope.js';
import { expectation, report, type Check, type State } from './state.js';

/** Counts Unicode code points (a surrogate pair is one character), without allocating. */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

function characters(count: number): string {
  return count === 1 ? '1 character' : `${count} characters`;
}

function compileLength(scope: Scope, keyword: 'minLength' | 'maxLength'): Check | undefined {
  const limit = readCount(scope, keyword);
  if (limit === undefined) return undefined;
  const min = keyword === 'minLength';
  const expected = `string of ${min ? 'at least' : 'at most'} ${characters(limit)}`;
  const fail = (value: string, state: State): boolean =>
    state.issues !== null &&
    report(state, expectation(keyword, expected, characters(codePointLength(value))));
  // A string has at most `length` and at least `length / 2` code points: most strings are decided
  // without counting.
  const twice = 2 * limit;
  return min
    ? (value, state) =>
        typeof value !== 'string' ||
        value.length >= twice ||
        codePointLength(value) >= limit ||
        fail(value, state)
    : (value, state) =>
        typeof value !== 'string' ||
        value.length <= limit ||
        codePointLength(value) <= limit ||
        fail(value, state);
}

function compilePattern(scope: Scope): Check | undefined {
  const source = scope.schema['pattern'];
  if (source === undefined) return undefined;
  const regexp = readRegExp(scope, 'pattern', source);
  const expected = `string matching pattern ${quote(regexp.source, 100)}`;
  return (value, state) =>
    typeof value !== 'string' ||
    regexp.test(value) ||
    (state.issues !== null && report(state, expectation('pattern', expected, quote(value))));
}

function compileFormat(scope: Scope): Check | undefined {
  const name = scope.schema['format'];
  if (name === undefined || !scope.assertFormats) return undefined;
  if (typeof name !== 'string') throw schemaError(scope, 'format', 'must be a string');
  const test = FORMATS.get(name);
  if (test === undefined) return undefined;
  const expected = `${name} string`;
  return (value, state) =>
    typeof value !== 'string' ||
    test(value) ||
    (state.issues !== null && report(state, expectation('format', expected, quote(value))));
}

/** Compiles the string keywords of a schema. */
export function compileStringKeywords(scope: Scope): Check[] {
  const checks = [
    compileLength(scope, 'minLength'),
    compileLength(scope, 'maxLength'),
    compilePattern(scope),
    compileFormat(scope),
  ];
  return checks.filter((check) => check !== undefined);
}

function decimals(value: number): number {
  const text = String(value);
  const exponent = text.indexOf('e-');
  const point = text.indexOf('.');
  const mantissa = exponent < 0 ? text : text.slice(0, exponent);
  const fraction = point < 0 ? 0 : mantissa.length - point - 1;
  return fraction + (exponent < 0 ? 0 : Number(text.slice(exponent + 2)));
}

/**
 * Whether `value` is a multiple of `divisor`, immune to binary rounding: `0.3` is a multiple of
 * `0.1`, `0.00751` is not a multiple of `0.0001`. Decimal scaling decides what division cannot.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  if (Number.isInteger(quotient)) return true;
  if (!Number.isFinite(quotient)) return false;
  const scale = 10 ** Math.max(decimals(value), decimals(divisor));
  const a = Math.round(value * scale);
  const b = Math.round(divisor * scale);
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b) && b !== 0) return a % b === 0;
  return Math.abs(quotient - Math.round(quotient)) < 1e-9 * Math.abs(quotient);
}

interface Bound {
  keyword: string;
  limit: number;
  operator: '>=' | '>' | '<=' | '<';
}

function bounds(scope: Scope): Bound[] {
  const found: Bound[] = [];
  const exclusive = (keyword: string): unknown => scope.schema[keyword];
  // Draft-04 form: a boolean exclusiveMinimum/exclusiveMaximum makes minimum/maximum strict.
  const minimum = readNumber(scope, 'minimum');
  if (minimum !== undefined) {
    const strict = exclusive('exclusiveMinimum') === true;
    found.push({ keyword: 'minimum', limit: minimum, operator: strict ? '>' : '>=' });
  }
  const maximum = readNumber(scope, 'maximum');
  if (maximum !== undefined) {
    const strict = exclusive('exclusiveMaximum') === true;
    found.push({ keyword: 'maximum', limit: maximum, operator: strict ? '<' : '<=' });
  }
  for (const [keyword, operator] of [
    ['exclusiveMinimum', '>'],
    ['exclusiveMaximum', '<'],
  ] as const) {
    if (typeof exclusive(keyword) === 'boolean') continue;
    const limit = readNumber(scope, keyword);
    if (limit !== undefined) found.push({ keyword, limit, operator });
  }
  return found;
}

function compileBound({ keyword, limit, operator }: Bound): Check {
  const expected = `number ${operator} ${limit}`;
  const fail = (value: number, state: State): boolean =>
    state.issues !== null && report(state, expectation(keyword, expected, String(value)));
  switch (operator) {
    case '>=':
      return (value, state) => typeof value !== 'number' || value >= limit || fail(value, state);
    case '>':
      return (value, state) => typeof value !== 'number' || value > limit || fail(value, state);
    case '<=':
      return (value, state) => typeof value !== 'number' || value <= limit || fail(value, state);
    case '<':
      return (value, state) => typeof value !== 'number' || value < limit || fail(value, state);
  }
}

/** Compiles the number keywords of a schema. */
export function compileNumberKeywords(scope: Scope): Check[] {
  const checks = bounds(scope).map(compileBound);
  const divisor = readNumber(scope, 'multipleOf');
  if (divisor !== undefined) {
    if (divisor <= 0) throw schemaError(scope, 'multipleOf', 'must be greater than 0');
    const expected = `multiple of ${divisor}`;
    checks.push(
      (value, state) =>
        typeof value !== 'number' ||
        isMultipleOf(value, divisor) ||
        (state.issues !== null &&
          report(state, expectation('multipleOf', expected, String(value)))),
    );
  }
  return checks;
}
