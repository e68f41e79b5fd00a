// Compiling a parsed template, once at parse, into a program for the matching machine
// (machine.ts): literals, variable captures, and the capture of a trailing query string.
import { codePointLength, encode, isTriplet } from './encoding.js';
import type { Inst } from './machine.js';
import type { Expression, OperatorSpec, Part, VarSpec } from './syntax.js';
import { OPERATORS } from './syntax.js';

/** How one captured span of the URI becomes a variable value. */
export interface Capture {
  readonly spec: OperatorSpec;
  readonly v: VarSpec;
  /** `value`: plain; `named`: `name[=value]`; `list`: sep-joined; `named-list`: `name=v` items. */
  readonly kind: 'value' | 'named' | 'list' | 'named-list';
}

/** A compiled template: the program for the matching machine (machine.ts) and how to read its captures. */
export interface Matcher {
  readonly program: readonly Inst[];
  /** Capture i spans slots 2i and 2i+1; the query string, when present, is the last pair. */
  readonly captures: readonly Capture[];
  /** The variables of the trailing query expressions, matched by name in any order. */
  readonly query: readonly VarSpec[];
}

/** Compiles the parts of a template into its matcher. */
export function compile(parts: readonly Part[]): Matcher {
  let tail = parts.length;
  for (let p = parts[tail - 1]; p !== undefined && isQuery(p); p = parts[tail - 1]) tail--;
  const head = parts.slice(0, tail);
  const program: Inst[] = [];
  const captures: Capture[] = [];
  for (const part of head) {
    if (typeof part === 'string') emitLiteral(program, part);
    else emitExpression(program, part, captures);
  }
  const query = parts.slice(tail).flatMap((part) => (typeof part === 'string' ? [] : part.vars));
  if (query.length > 0) emitQuery(program, queryStart(head, parts[tail]), 2 * captures.length);
  program.push({ k: 'end' });
  return { program, captures, query };
}

function isQuery(part: Part): boolean {
  return typeof part !== 'string' && (part.op === '?' || part.op === '&');
}

/** Emits `body` as optional, preferring to take it: `(?:body)?`. */
function optional(program: Inst[], body: () => void): void {
  const split: Inst = { k: 'split', a: program.length + 1, b: -1 };
  program.push(split);
  body();
  split.b = program.length;
}

/** Emits `body` zero or more times, greedy: `(?:body)*`. */
function star(program: Inst[], body: () => void): void {
  const top = program.length;
  const split: Inst = { k: 'split', a: top + 1, b: -1 };
  program.push(split);
  body();
  program.push({ k: 'jmp', to: top });
  split.b = program.length;
}

/** Emits one character of a value, any number of times but as few as possible: `unit*?`. */
function lazyUnits(program: Inst[], stops: string, min: 0 | 1): void {
  if (min === 1) program.push({ k: 'unit', stops });
  const top = program.length;
  program.push({ k: 'split', a: top + 3, b: top + 1 }, { k: 'unit', stops }, { k: 'jmp', to: top });
}

/** A literal matches itself; a character that expansion would pct-encode also matches encoded. */
function emitLiteral(program: Inst[], literal: string): void {
  let plain = '';
  let i = 0;
  while (i < literal.length) {
    const size = isTriplet(literal, i) ? 3 : codePointLength(literal, i);
    const text = literal.slice(i, i + size);
    const encoded = encode(text, true);
    i += size;
    if (encoded === text) {
      plain += text;
      continue;
    }
    emitText(program, plain);
    plain = '';
    const split: Inst = { k: 'split', a: program.length + 1, b: program.length + 3 };
    program.push(split, { k: 'lit', text }, { k: 'jmp', to: program.length + 4 });
    program.push({ k: 'lit', text: encoded });
  }
  emitText(program, plain);
}

/** Emits a `lit` instruction unless `text` is empty. */
function emitText(program: Inst[], text: string): void {
  if (text !== '') program.push({ k: 'lit', text });
}

function emitExpression(program: Inst[], expr: Expression, captures: Capture[]): void {
  const spec = OPERATORS[expr.op];
  // Later variables may be omitted (undefined) only from the end: `a(?:,b(?:,c)?)?`.
  const emitFrom = (index: number): void => {
    const v = expr.vars[index];
    if (v === undefined) return;
    emitText(program, index === 0 ? spec.first : spec.sep);
    const separated = expr.vars.length > 1 || v.explode;
    const stops = separated ? spec.stops + spec.sep : spec.stops;
    const slot = 2 * captures.length;
    captures.push({ spec, v, kind: captureKind(spec, v) });
    program.push({ k: 'save', slot });
    emitVar(program, { spec, v, stops });
    program.push({ k: 'save', slot: slot + 1 });
    if (index + 1 < expr.vars.length) {
      optional(program, () => {
        emitFrom(index + 1);
      });
    }
  };
  if (spec.first === '') emitFrom(0);
  else {
    optional(program, () => {
      emitFrom(0);
    });
  }
}

function captureKind(spec: OperatorSpec, v: VarSpec): Capture['kind'] {
  if (v.explode) return spec.named ? 'named-list' : 'list';
  return spec.named ? 'named' : 'value';
}

/** Emits one variable: `value`, `name[=value]`, or items joined by the separator. */
function emitVar(
  program: Inst[],
  { spec, v, stops }: { spec: OperatorSpec; v: VarSpec; stops: string },
): void {
  const value = (): void => {
    lazyUnits(program, stops, spec.nonEmpty ? 1 : 0);
  };
  const item = (): void => {
    if (!spec.named) {
      value();
      return;
    }
    program.push({ k: 'lit', text: v.name });
    const assigned = (): void => {
      program.push({ k: 'lit', text: '=' });
      value();
    };
    // `;x` for an empty value (ifEmpty ''), else `x=`: a value always follows `=`.
    if (spec.ifEmpty === '') optional(program, assigned);
    else assigned();
  };
  item();
  if (v.explode) {
    star(program, () => {
      program.push({ k: 'lit', text: spec.sep });
      item();
    });
  }
}

/**
 * How the query string after the head starts: with `?`, or with `&` when the head already opened
 * the query (`/search?q=x{&page}`), or bare ('') after a literal ending in `?` or `&`.
 */
function queryStart(head: readonly Part[], firstTail: Part | undefined): '' | '?' | '&' {
  const last = head.at(-1);
  if (typeof last === 'string' && /[?&]$/.test(last)) return '';
  const opened = head.some((p) => (typeof p === 'string' ? p.includes('?') : p.op === '?'));
  return opened || (typeof firstTail !== 'string' && firstTail?.op === '&') ? '&' : '?';
}

/** Emits the capture of the query string; its parameters are matched by `matchQuery` (match.ts). */
function emitQuery(program: Inst[], start: '' | '?' | '&', slot: number): void {
  const rest = (): void => {
    program.push({ k: 'save', slot }, { k: 'rest' }, { k: 'save', slot: slot + 1 });
  };
  if (start === '') {
    rest();
    return;
  }
  optional(program, () => {
    program.push({ k: 'lit', text: start });
    rest();
  });
}
