// The parsed form of an RFC 6570 URI template, and the operator table that drives both expansion
// and matching. RFC 6570 section 2.2 and appendix A.

/** An expression's operator (RFC 6570 section 2.2); '' is simple string expansion. */
export type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** How an operator expands and matches: one row of RFC 6570 appendix A, plus matching. */
export interface OperatorSpec {
  /** Text before the first expanded variable. */
  readonly first: string;
  /** Text between expanded variables (and exploded items). */
  readonly sep: string;
  /** Whether variables are written as `name=value`. */
  readonly named: boolean;
  /** What follows a name whose value is empty. */
  readonly ifEmpty: string;
  /** Whether reserved characters and pct-encoded triplets pass through unencoded (U+R). */
  readonly allowReserved: boolean;
  /** Characters a matched value can never contain raw (they end the value). */
  readonly stops: string;
  /** Whether a matched value must be non-empty. */
  readonly nonEmpty: boolean;
  /** Whether a decoded value must not contain `/` (path positions). */
  readonly noSlash: boolean;
}

// RFC 6570 appendix A, plus the matching columns (stops, nonEmpty, noSlash).
const PLAIN = { named: false, ifEmpty: '', allowReserved: false, nonEmpty: false, noSlash: false };
export const OPERATORS: Readonly<Record<Operator, OperatorSpec>> = {
  '': { ...PLAIN, first: '', sep: ',', stops: '/?#', nonEmpty: true, noSlash: true },
  '+': { ...PLAIN, first: '', sep: ',', stops: '?#', allowReserved: true, nonEmpty: true },
  '#': { ...PLAIN, first: '#', sep: ',', stops: '', allowReserved: true },
  '.': { ...PLAIN, first: '.', sep: '.', stops: '/?#', noSlash: true },
  '/': { ...PLAIN, first: '/', sep: '/', stops: '/?#', noSlash: true },
  ';': { ...PLAIN, first: ';', sep: ';', stops: ';/?#', named: true, noSlash: true },
  '?': { ...PLAIN, first: '?', sep: '&', stops: '&#', named: true, ifEmpty: '=' },
  '&': { ...PLAIN, first: '&', sep: '&', stops: '&#', named: true, ifEmpty: '=' },
};

/** One `varspec` of an expression: `name`, `name*` or `name:prefix`. */
export interface VarSpec {
  readonly name: string;
  readonly explode: boolean;
  readonly prefix: number | undefined;
}

/** One `{…}` expression: an operator and its variables. */
export interface Expression {
  readonly op: Operator;
  readonly vars: readonly VarSpec[];
}

/** A template is literals (strings) and expressions, in order. */
export type Part = string | Expression;
