// Object keywords: properties, patternProperties, additionalProperties, required, propertyNames,
// minProperties, maxProperties, dependentRequired and draft-07 `dependencies` (property form).
// Keys are read with for…in plus Object.hasOwn, so `__proto__` is ordinary data and no key array
// is allocated.
import { isObject } from '../../internal/json.js';
import { quote } from './describe.js';
import { ownKeyCount } from './json.js';
import { readCount, readObject, readRegExp, readStrings, subOrFalse, type Scope } from './scope.js';
import {
  collect,
  enter,
  expectation,
  leave,
  markKey,
  probeChild,
  report,
  stop,
  TRUE,
  visit,
  type Check,
} from './state.js';

interface Named {
  key: string;
  check: Check;
}

interface Patterned {
  regexp: RegExp;
  check: Check;
}

function compileProperties(scope: Scope): Check | undefined {
  const properties = readObject(scope, 'properties');
  if (properties === undefined) return undefined;
  const entries: Named[] = Object.keys(properties).map((key) => ({
    key,
    check: scope.sub(['properties', key], false),
  }));
  return (value, state) => {
    if (!isObject(value)) return true;
    let ok = true;
    for (const { key, check } of entries) {
      if (!Object.hasOwn(value, key)) continue;
      if (state.evaluated !== null) markKey(state.evaluated, key);
      if (check === TRUE) continue;
      enter(state, key);
      const good = visit(state, check, value[key]);
      leave(state);
      if (good) continue;
      ok = false;
      if (stop(state)) return false;
    }
    return ok;
  };
}

function readPatterns(scope: Scope): Patterned[] {
  const patterns = readObject(scope, 'patternProperties') ?? {};
  return Object.keys(patterns).map((source) => ({
    regexp: readRegExp(scope, 'patternProperties', source),
    check: scope.sub(['patternProperties', source], false),
  }));
}

function compilePatternProperties(scope: Scope, patterns: readonly Patterned[]): Check | undefined {
  if (patterns.length === 0) return undefined;
  return (value, state) => {
    if (!isObject(value)) return true;
    let ok = true;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      for (const { regexp, check } of patterns) {
        if (!regexp.test(key)) continue;
        if (state.evaluated !== null) markKey(state.evaluated, key);
        enter(state, key);
        const good = visit(state, check, value[key]);
        leave(state);
        if (good) continue;
        ok = false;
        if (stop(state)) return false;
      }
    }
    return ok;
  };
}

function allowedList(known: ReadonlySet<string>): string {
  if (known.size === 0) return '; no properties are allowed';
  const names = [...known].slice(0, 20).map((name) => quote(name));
  return `; allowed: ${names.join(', ')}${known.size > 20 ? ', …' : ''}`;
}

function compileAdditional(scope: Scope, patterns: readonly Patterned[]): Check | undefined {
  const check = subOrFalse(scope, 'additionalProperties');
  if (check === undefined) return undefined;
  if (check === TRUE) {
    // Allows everything, but still evaluates every property for unevaluatedProperties.
    return (value, state) => {
      if (state.evaluated !== null && isObject(value)) state.evaluated.allKeys = true;
      return true;
    };
  }
  const known = new Set(Object.keys(readObject(scope, 'properties') ?? {}));
  const allowed = patterns.length === 0 ? allowedList(known) : '';
  const isAdditional = (key: string): boolean => {
    if (known.has(key)) return false;
    for (const pattern of patterns) if (pattern.regexp.test(key)) return false;
    return true;
  };
  return (value, state) => {
    if (!isObject(value)) return true;
    if (state.evaluated !== null) state.evaluated.allKeys = true;
    let ok = true;
    for (const key in value) {
      if (!Object.hasOwn(value, key) || !isAdditional(key)) continue;
      if (check === false) {
        if (state.issues === null) return false;
        report(state, { keyword: 'additionalProperties', message: unexpected(key, allowed) });
      } else {
        enter(state, key);
        const good = visit(state, check, value[key]);
        leave(state);
        if (good) continue;
      }
      ok = false;
      if (stop(state)) return false;
    }
    return ok;
  };
}

/** The message for a property that no keyword allows. */
export function unexpected(key: string, allowed = ''): string {
  return `unexpected property ${quote(key)}${allowed}`;
}

function compileRequired(scope: Scope): Check | undefined {
  const required = readStrings(scope, 'required', scope.schema['required']);
  if (required === undefined || required.length === 0) return undefined;
  return (value, state) => {
    if (!isObject(value)) return true;
    let ok = true;
    for (const key of required) {
      if (Object.hasOwn(value, key)) continue;
      if (state.issues === null) return false;
      ok = false;
      report(state, { keyword: 'required', message: `missing required property ${quote(key)}` });
      if (stop(state)) return false;
    }
    return ok;
  };
}

function compilePropertyNames(scope: Scope): Check | undefined {
  if (scope.schema['propertyNames'] === undefined) return undefined;
  const check = scope.sub(['propertyNames'], false);
  return (value, state) => {
    if (!isObject(value)) return true;
    let ok = true;
    for (const key in value) {
      if (!Object.hasOwn(value, key) || probeChild(state, check, key)) continue;
      if (state.issues === null) return false;
      ok = false;
      const why = collect(state, check, key)[0]?.message ?? 'does not match propertyNames';
      report(state, {
        keyword: 'propertyNames',
        message: `invalid property name ${quote(key)}: ${why}`,
      });
      if (stop(state)) return false;
    }
    return ok;
  };
}

function compileCount(scope: Scope, keyword: 'minProperties' | 'maxProperties'): Check | undefined {
  const limit = readCount(scope, keyword);
  if (limit === undefined) return undefined;
  const min = keyword === 'minProperties';
  const expected = `object with ${min ? 'at least' : 'at most'} ${limit} properties`;
  return (value, state) => {
    if (!isObject(value)) return true;
    const count = ownKeyCount(value);
    if (min ? count >= limit : count <= limit) return true;
    return state.issues !== null && report(state, expectation(keyword, expected, `${count}`));
  };
}

/** Compiles dependentRequired, or the array members of draft-07 `dependencies`. */
function compileDependentRequired(scope: Scope, keyword: string): Check | undefined {
  const map = readObject(scope, keyword);
  if (map === undefined) return undefined;
  const rules: { key: string; required: string[] }[] = [];
  for (const key of Object.keys(map)) {
    const member = map[key];
    if (keyword === 'dependencies' && !Array.isArray(member)) continue;
    rules.push({ key, required: readStrings(scope, keyword, member) ?? [] });
  }
  if (rules.length === 0) return undefined;
  return (value, state) => {
    if (!isObject(value)) return true;
    let ok = true;
    for (const { key, required } of rules) {
      if (!Object.hasOwn(value, key)) continue;
      for (const name of required) {
        if (Object.hasOwn(value, name)) continue;
        if (state.issues === null) return false;
        ok = false;
        const message = `missing property ${quote(name)}, required when ${quote(key)} is present`;
        report(state, { keyword, message });
        if (stop(state)) return false;
      }
    }
    return ok;
  };
}

/** Compiles the object keywords of a schema (dependentSchemas is an applicator). */
export function compileObjectKeywords(scope: Scope): Check[] {
  const patterns = readPatterns(scope);
  const checks = [
    compileRequired(scope),
    compileProperties(scope),
    compilePatternProperties(scope, patterns),
    compileAdditional(scope, patterns),
    compilePropertyNames(scope),
    compileCount(scope, 'minProperties'),
    compileCount(scope, 'maxProperties'),
    compileDependentRequired(scope, 'dependentRequired'),
    compileDependentRequired(scope, 'dependencies'),
  ];
  return checks.filter((check) => check !== undefined);
}
