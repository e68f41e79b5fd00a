// The per-call validation state and the helpers every keyword check shares. A compiled schema is a
// tree of Check closures; they run in one of two modes. Silent mode (`issues === null`) stops at
// the first failure and builds no messages: it is the fast path and also how anyOf/oneOf/not/if
// try their branches. Collect mode gathers up to `maxIssues` issues and runs only after a silent
// pass has failed.
import { MAX_DEPTH, TooDeepError } from './json.js';
import { toPointer } from './pointer.js';
import type { ValidationIssue } from './types.js';

/** Check is one compiled schema or keyword: true when `value` passes. */
export type Check = (value: unknown, state: State) => boolean;

/**
 * Evaluated records which properties and items of the current instance some keyword has
 * evaluated, for `unevaluatedProperties` and `unevaluatedItems`. It exists only while a schema
 * with one of those keywords is running, so schemas without them pay nothing.
 */
export interface Evaluated {
  keys: Set<string> | null;
  allKeys: boolean;
  /** Items `[0, items)` were evaluated (prefixItems, tuple `items`). */
  items: number;
  allItems: boolean;
  /** Indexes matched by `contains`. */
  indices: Set<number> | null;
}

/** State is the mutable context of one validation call. */
export interface State {
  /** Collected issues, or null in silent mode. */
  issues: ValidationIssue[] | null;
  /** Location of the value being checked, kept in collect mode only (see {@link enter}). */
  readonly path: (string | number)[];
  /** How many containers deep the current value is. */
  depth: number;
  readonly maxIssues: number;
  /** The tracker of the innermost schema with unevaluated*, for the current instance only. */
  evaluated: Evaluated | null;
}

/** The check of the `true` schema and of absent keywords. */
export const TRUE: Check = () => true;

/** Creates a state in silent mode. */
export function createState(maxIssues: number): State {
  return { issues: null, path: [], depth: 0, maxIssues, evaluated: null };
}

/** Returns a state to silent mode at the root, ready for the next call. */
export function resetState(state: State): void {
  state.issues = null;
  if (state.path.length > 0) state.path.length = 0;
  state.depth = 0;
  state.evaluated = null;
}

/** Whether checking should stop after a failure: in silent mode, or once enough issues exist. */
export function stop(state: State): boolean {
  return state.issues === null || state.issues.length >= state.maxIssues;
}

/** IssueDetail is what a keyword says about a failure; `at` names a child of the current path. */
export interface IssueDetail {
  keyword: string;
  message: string;
  expected?: string;
  received?: string;
  at?: string | number;
}

/** Builds the common `expected X, received Y` detail. */
export function expectation(keyword: string, expected: string, received: string): IssueDetail {
  return { keyword, message: `expected ${expected}, received ${received}`, expected, received };
}

/** Records an issue at the current path (collect mode only) and returns false for the caller. */
export function report(state: State, detail: IssueDetail): false {
  const issues = state.issues;
  if (issues === null || issues.length >= state.maxIssues) return false;
  const path = detail.at === undefined ? state.path.slice() : [...state.path, detail.at];
  const issue: ValidationIssue = {
    path,
    pointer: toPointer(path),
    keyword: detail.keyword,
    message: detail.message,
  };
  if (detail.expected !== undefined) issue.expected = detail.expected;
  if (detail.received !== undefined) issue.received = detail.received;
  issues.push(issue);
  return false;
}

/** Appends already-built issues (from a branch collected on its own), up to the limit. */
export function addIssues(state: State, found: readonly ValidationIssue[]): void {
  const issues = state.issues;
  if (issues === null) return;
  for (const issue of found) {
    if (issues.length >= state.maxIssues) return;
    issues.push(issue);
  }
}

/**
 * Adds a child's segment to the path before {@link visit}. Only collect mode keeps a path: every
 * issue is built there, and the silent fast path skips the bookkeeping.
 */
export function enter(state: State, segment: string | number): void {
  if (state.issues !== null) state.path.push(segment);
}

/** Removes the segment {@link enter} added (a no-op in silent mode, like enter). */
export function leave(state: State): void {
  if (state.issues !== null) state.path.pop();
}

/**
 * Checks a child value (a property or an item) whose path segment the caller has entered. The
 * child is a new instance: it gets no evaluation tracker, and its depth is bounded.
 */
export function visit(state: State, check: Check, value: unknown): boolean {
  if (state.depth >= MAX_DEPTH) throw new TooDeepError();
  const saved = state.evaluated;
  state.evaluated = null;
  state.depth++;
  const ok = check(value, state);
  state.depth--;
  state.evaluated = saved;
  return ok;
}

/** Checks a child value silently (a propertyNames key, a contains candidate). */
export function probeChild(state: State, check: Check, value: unknown): boolean {
  const issues = state.issues;
  state.issues = null;
  const ok = visit(state, check, value);
  state.issues = issues;
  return ok;
}

/** Checks the current value silently (a branch being tried), keeping the current tracker. */
export function probe(state: State, check: Check, value: unknown): boolean {
  const issues = state.issues;
  if (issues === null) return check(value, state);
  state.issues = null;
  const ok = check(value, state);
  state.issues = issues;
  return ok;
}

/** Runs a check on the current value in collect mode on its own and returns what it found. */
export function collect(state: State, check: Check, value: unknown): ValidationIssue[] {
  const saved = { issues: state.issues, evaluated: state.evaluated };
  const found: ValidationIssue[] = [];
  state.issues = found;
  state.evaluated = null;
  check(value, state);
  state.issues = saved.issues;
  state.evaluated = saved.evaluated;
  return found;
}

/** Creates an empty evaluation tracker. */
export function newEvaluated(): Evaluated {
  return { keys: null, allKeys: false, items: 0, allItems: false, indices: null };
}

/** Marks one property of the current instance as evaluated. */
export function markKey(evaluated: Evaluated, key: string): void {
  (evaluated.keys ??= new Set()).add(key);
}

/** Adds what `from` (a subschema that passed) evaluated to `into`. */
export function mergeEvaluated(into: Evaluated, from: Evaluated): void {
  if (from.allKeys) into.allKeys = true;
  else if (from.keys !== null) for (const key of from.keys) markKey(into, key);
  if (from.allItems) into.allItems = true;
  if (from.items > into.items) into.items = from.items;
  if (from.indices !== null) {
    const indices = (into.indices ??= new Set());
    for (const index of from.indices) indices.add(index);
  }
}
