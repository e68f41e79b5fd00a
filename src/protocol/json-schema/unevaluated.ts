// unevaluatedProperties and unevaluatedItems (2020-12) with full annotation tracking: a schema
// that has either keyword runs its other keywords with a fresh Evaluated tracker, which
// properties/patternProperties/additionalProperties, prefixItems/items/contains, $ref and the
// branches of allOf/anyOf/oneOf/if/then/else/dependentSchemas that passed fill in. Schemas
// without these keywords never allocate a tracker.
import { isObject } from '../../internal/json.js';
import { unexpected } from './objects.js';
import { subOrFalse, type Scope } from './scope.js';
import {
  enter,
  leave,
  mergeEvaluated,
  newEvaluated,
  report,
  stop,
  visit,
  type Check,
  type Evaluated,
  type State,
} from './state.js';

type Rest = Check | false;

function checkProperties(state: State, rest: Rest, object: Record<string, unknown>): boolean {
  const seen = state.evaluated;
  if (seen === null || seen.allKeys) return true;
  let ok = true;
  for (const key in object) {
    if (!Object.hasOwn(object, key) || seen.keys?.has(key) === true) continue;
    if (rest === false) {
      if (state.issues === null) return false;
      report(state, { keyword: 'unevaluatedProperties', message: unexpected(key) });
    } else {
      enter(state, key);
      const good = visit(state, rest, object[key]);
      leave(state);
      if (good) continue;
    }
    ok = false;
    if (stop(state)) return false;
  }
  seen.allKeys = true;
  return ok;
}

function checkItems(state: State, rest: Rest, array: readonly unknown[]): boolean {
  const seen = state.evaluated;
  if (seen === null || seen.allItems) return true;
  let ok = true;
  for (let index = seen.items; index < array.length; index++) {
    if (seen.indices?.has(index) === true) continue;
    if (rest === false) {
      const detail = { keyword: 'unevaluatedItems', message: 'unexpected item', at: index };
      return state.issues !== null && report(state, detail);
    }
    enter(state, index);
    const good = visit(state, rest, array[index]);
    leave(state);
    if (good) continue;
    ok = false;
    if (stop(state)) return false;
  }
  seen.allItems = true;
  return ok;
}

/**
 * Wraps a schema's other keywords (`inner`) with its unevaluated* keywords, or returns `inner`
 * unchanged when the schema has neither.
 */
export function withUnevaluated(scope: Scope, inner: Check): Check {
  const properties = subOrFalse(scope, 'unevaluatedProperties');
  const items = subOrFalse(scope, 'unevaluatedItems');
  if (properties === undefined && items === undefined) return inner;
  const rest = (value: unknown, state: State): boolean => {
    if (isObject(value))
      return properties === undefined || checkProperties(state, properties, value);
    if (Array.isArray(value)) return items === undefined || checkItems(state, items, value);
    return true;
  };
  return (value, state) => {
    const outer = state.evaluated;
    const mine: Evaluated = newEvaluated();
    state.evaluated = mine;
    let ok = inner(value, state);
    if (ok || !stop(state)) ok = rest(value, state) && ok;
    state.evaluated = outer;
    if (ok && outer !== null) mergeEvaluated(outer, mine);
    return ok;
  };
}
