// Array keywords: prefixItems and items (2020-12), tuple `items` and additionalItems (draft-07),
// contains with minContains/maxContains, minItems, maxItems, uniqueItems.
import { showSchemaValue } from './describe.js';
import { deepEqual } from './json.js';
import { readCount, schemaError, subOrFalse, type Scope } from './scope.js';
import { enter, expectation, leave, probeChild, report, stop, visit, type Check } from './state.js';

function items(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}

interface ItemsShape {
  /** Checks for the first items (prefixItems, or draft-07 array `items`). */
  tuple: Check[];
  /** Check for the items after the tuple, `false` to forbid them, undefined for none. */
  rest: Check | false | undefined;
  restKeyword: string;
}

function readTuple(scope: Scope, keyword: string): Check[] {
  const value = scope.schema[keyword];
  if (!Array.isArray(value)) throw schemaError(scope, keyword, 'must be an array of schemas');
  return value.map((_, index) => scope.sub([keyword, index], false));
}

/**
 * Decides which keywords hold the tuple and the rest. 2020-12: prefixItems + items. Draft-07:
 * array `items` + additionalItems. An array `items` without prefixItems in a 2020-12 schema is
 * read the draft-07 way rather than rejected: many MCP servers emit such schemas without
 * `$schema`.
 */
function itemsShape(scope: Scope): ItemsShape | undefined {
  const { schema } = scope;
  if (!scope.legacy && schema['prefixItems'] !== undefined) {
    const rest = Array.isArray(schema['items']) ? undefined : subOrFalse(scope, 'items');
    return { tuple: readTuple(scope, 'prefixItems'), rest, restKeyword: 'items' };
  }
  if (Array.isArray(schema['items'])) {
    const rest = subOrFalse(scope, 'additionalItems');
    return { tuple: readTuple(scope, 'items'), rest, restKeyword: 'additionalItems' };
  }
  const rest = subOrFalse(scope, 'items');
  return rest === undefined ? undefined : { tuple: [], rest, restKeyword: 'items' };
}

function compileItems(scope: Scope): Check | undefined {
  const shape = itemsShape(scope);
  if (shape === undefined) return undefined;
  const { tuple, rest, restKeyword } = shape;
  const expected = `at most ${items(tuple.length)}`;
  return (value, state) => {
    if (!Array.isArray(value)) return true;
    const prefix = Math.min(tuple.length, value.length);
    const evaluated = state.evaluated;
    if (evaluated !== null) {
      if (prefix > evaluated.items) evaluated.items = prefix;
      if (rest !== undefined) evaluated.allItems = true;
    }
    let ok = true;
    for (let index = 0; index < value.length; index++) {
      const check = index < prefix ? tuple[index] : rest;
      if (check === undefined) break;
      if (check === false) {
        const received = items(value.length);
        return state.issues !== null && report(state, expectation(restKeyword, expected, received));
      }
      enter(state, index);
      const good = visit(state, check, value[index]);
      leave(state);
      if (good) continue;
      ok = false;
      if (stop(state)) return false;
    }
    return ok;
  };
}

function compileContains(scope: Scope): Check | undefined {
  const schema = scope.schema['contains'];
  if (schema === undefined) return undefined;
  const check = scope.sub(['contains'], false);
  const min = readCount(scope, 'minContains') ?? 1;
  const max = readCount(scope, 'maxContains');
  const matching = `matching ${showSchemaValue(schema)}`;
  return (value, state) => {
    if (!Array.isArray(value)) return true;
    const evaluated = state.evaluated;
    let count = 0;
    for (let index = 0; index < value.length; index++) {
      if (!probeChild(state, check, value[index])) continue;
      count++;
      if (evaluated !== null) (evaluated.indices ??= new Set()).add(index);
      else if (count >= min && max === undefined) return true;
    }
    if (count >= min && (max === undefined || count <= max)) return true;
    if (state.issues === null) return false;
    const tooFew = count < min;
    const keyword = tooFew
      ? scope.schema['minContains'] === undefined
        ? 'contains'
        : 'minContains'
      : 'maxContains';
    const bound = tooFew ? `at least ${items(min)}` : `at most ${items(max ?? 0)}`;
    return report(state, expectation(keyword, `${bound} ${matching}`, `${count}`));
  };
}

function compileCount(scope: Scope, keyword: 'minItems' | 'maxItems'): Check | undefined {
  const limit = readCount(scope, keyword);
  if (limit === undefined) return undefined;
  const min = keyword === 'minItems';
  const expected = `array with ${min ? 'at least' : 'at most'} ${items(limit)}`;
  return (value, state) =>
    !Array.isArray(value) ||
    (min ? value.length >= limit : value.length <= limit) ||
    (state.issues !== null && report(state, expectation(keyword, expected, items(value.length))));
}

/** Finds two equal items: pairwise for short arrays, through a Map of primitives otherwise. */
function findDuplicate(array: readonly unknown[]): [number, number] | undefined {
  if (array.length <= 16) {
    for (let j = 1; j < array.length; j++) {
      for (let i = 0; i < j; i++) if (deepEqual(array[i], array[j])) return [i, j];
    }
    return undefined;
  }
  const seen = new Map<unknown, number>();
  const composites: number[] = [];
  for (const [j, item] of array.entries()) {
    if (typeof item === 'object' && item !== null) {
      for (const i of composites) if (deepEqual(array[i], item)) return [i, j];
      composites.push(j);
      continue;
    }
    const i = seen.get(item);
    if (i !== undefined) return [i, j];
    seen.set(item, j);
  }
  return undefined;
}

function compileUnique(scope: Scope): Check | undefined {
  const unique = scope.schema['uniqueItems'];
  if (unique === undefined || unique === false) return undefined;
  if (unique !== true) throw schemaError(scope, 'uniqueItems', 'must be a boolean');
  return (value, state) => {
    if (!Array.isArray(value) || value.length < 2) return true;
    const duplicate = findDuplicate(value);
    if (duplicate === undefined) return true;
    const [i, j] = duplicate;
    const message = `expected unique items, but items ${i} and ${j} are equal`;
    return state.issues !== null && report(state, { keyword: 'uniqueItems', message });
  };
}

/** Compiles the array keywords of a schema. */
export function compileArrayKeywords(scope: Scope): Check[] {
  const checks = [
    compileCount(scope, 'minItems'),
    compileCount(scope, 'maxItems'),
    compileItems(scope),
    compileContains(scope),
    compileUnique(scope),
  ];
  return checks.filter((check) => check !== undefined);
}
