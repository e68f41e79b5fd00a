// Parsing RFC 6570 URI templates (section 2) into literals and expressions, with errors that name
// the position and the reason.
import { isHex } from './encoding.js';
import type { Expression, Operator, Part, VarSpec } from './syntax.js';

function fail(template: string, index: number, reason: string): never {
  throw new TypeError(
    `invalid URI template ${JSON.stringify(template)}: ${reason} at position ${index}`,
  );
}

/** Splits `template` into literals and expressions; throws a TypeError when it is invalid. */
export function parseTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const ch = template.charAt(i);
    if (ch === '}') fail(template, i, "unmatched '}'");
    if (ch !== '{') {
      literal += ch;
      i++;
      continue;
    }
    if (literal !== '') parts.push(literal);
    literal = '';
    const close = findClose(template, i);
    parts.push(parseExpression(template, i, close));
    i = close + 1;
  }
  if (literal !== '') parts.push(literal);
  return parts;
}

function findClose(template: string, open: number): number {
  for (let j = open + 1; j < template.length; j++) {
    const ch = template.charAt(j);
    if (ch === '}') return j;
    if (ch === '{') fail(template, j, "nested '{' inside an expression");
  }
  return fail(template, open, "unclosed expression (missing '}')");
}

const OPERATOR_CHARS = '+#./;?&';
const RESERVED_OPERATOR_CHARS = '=,!@|';

function parseExpression(template: string, open: number, close: number): Expression {
  if (close === open + 1) fail(template, open, 'empty expression');
  let start = open + 1;
  const first = template.charAt(start);
  let operator: Operator = '';
  if (OPERATOR_CHARS.includes(first)) {
    operator = first as Operator;
    start++;
  } else if (RESERVED_OPERATOR_CHARS.includes(first)) {
    fail(template, start, `reserved operator '${first}'`);
  } else if (!isVarChar(first) && first !== '%') {
    fail(template, start, `invalid operator '${charAt(template, start)}'`);
  }
  const vars: VarSpec[] = [];
  let from = start;
  for (let j = start; j <= close; j++) {
    if (j === close || template.charAt(j) === ',') {
      vars.push(parseVarSpec(template, from, j));
      from = j + 1;
    }
  }
  return { op: operator, vars };
}

function isVarChar(ch: string): boolean {
  return /^[A-Za-z0-9_]$/.test(ch);
}

function parseVarSpec(template: string, start: number, end: number): VarSpec {
  let j = start;
  let afterDot = false;
  while (j < end) {
    const ch = template.charAt(j);
    if (isVarChar(ch)) {
      j++;
    } else if (ch === '%') {
      if (!isHex(template.charAt(j + 1)) || !isHex(template.charAt(j + 2)) || j + 2 >= end) {
        fail(template, j, 'invalid percent-encoding in variable name');
      }
      j += 3;
    } else if (ch === '.') {
      if (j === start) fail(template, j, "variable name starts with '.'");
      if (afterDot) fail(template, j, "'..' in variable name");
      j++;
      afterDot = true;
      continue;
    } else {
      break;
    }
    afterDot = false;
  }
  if (j === start) {
    fail(
      template,
      j,
      j === end
        ? 'empty variable name'
        : `invalid character '${charAt(template, j)}' in variable name`,
    );
  }
  if (afterDot) fail(template, j - 1, "variable name ends with '.'");
  const name = template.slice(start, j);
  if (j === end) return { name, explode: false, prefix: undefined };
  const modifier = template.charAt(j);
  if (modifier === '*') {
    if (j + 1 < end) fail(template, j + 1, `unexpected '${charAt(template, j + 1)}' after '*'`);
    return { name, explode: true, prefix: undefined };
  }
  if (modifier !== ':') {
    fail(template, j, `invalid character '${charAt(template, j)}' in variable name`);
  }
  const digits = template.slice(j + 1, end);
  if (!/^[0-9]+$/.test(digits)) {
    fail(template, j + 1, 'prefix modifier is not a number from 1 to 9999');
  }
  const prefix = Number(digits);
  if (digits.startsWith('0') || prefix > 9999) {
    fail(template, j + 1, `prefix modifier ${digits} is out of range (1..9999)`);
  }
  return { name, explode: false, prefix };
}

/** The character at `index`, a whole code point, for messages. */
function charAt(text: string, index: number): string {
  return String.fromCodePoint(text.codePointAt(index) ?? 0);
}
