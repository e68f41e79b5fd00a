// Explains an anyOf/oneOf that no branch satisfied. Listing every branch's failures confuses a
// model, so this picks the branch the value was evidently aiming at, or joins the branches'
// expectations (`expected string or null`), and only otherwise sums the branches up.
import { describeValue } from './describe.js';
import { renderPath } from './pointer.js';
import { addIssues, collect, report, type Check, type IssueDetail, type State } from './state.js';
import type { ValidationIssue } from './types.js';

/** Alternatives is a compiled anyOf or oneOf. */
export interface Alternatives {
  keyword: 'anyOf' | 'oneOf';
  branches: readonly Check[];
}

const SHAPE = new Set(['type', 'const', 'enum', 'false']);
const DISCRIMINATOR = new Set(['const', 'enum']);

/** Whether an issue says the value at `depth` has the wrong type or value altogether. */
function isShapeIssue(issue: ValidationIssue, depth: number): boolean {
  if (issue.path.length !== depth) return false;
  if (SHAPE.has(issue.keyword)) return true;
  // A nested anyOf/oneOf that could sum itself up as `expected X or Y` failed on shape too.
  return (issue.keyword === 'anyOf' || issue.keyword === 'oneOf') && issue.expected !== undefined;
}

/** The const/enum issue on a direct property (a discriminator like `kind`), if any. */
function discriminatorIssue(issues: readonly ValidationIssue[], depth: number) {
  return issues.find(
    (issue) => issue.path.length === depth + 1 && DISCRIMINATOR.has(issue.keyword),
  );
}

/** Whether a branch failed on the value's shape rather than on details of a matching shape. */
function missesShape(issues: readonly ValidationIssue[], depth: number): boolean {
  return (
    issues.some((issue) => isShapeIssue(issue, depth)) ||
    discriminatorIssue(issues, depth) !== undefined
  );
}

/** Joins one issue per branch into `expected X or Y, received Z`. */
function join(picked: readonly ValidationIssue[], keyword: string, fallback: string): IssueDetail {
  const expected = [...new Set(picked.map((issue) => issue.expected))].join(' or ');
  const receivedAll = new Set(picked.map((issue) => issue.received));
  const [only] = receivedAll;
  const received = receivedAll.size === 1 && only !== undefined ? only : fallback;
  return { keyword, message: `expected ${expected}, received ${received}`, expected, received };
}

interface Joinable {
  picked: ValidationIssue[];
  at?: string | number;
}

/**
 * Picks one issue per branch to join as `expected X or Y`: every branch failed with one simple
 * expectation on the value itself, or every branch rejected the same direct property with a
 * const/enum (a tagged union, reported at that property).
 */
function joinable(found: readonly ValidationIssue[][], depth: number): Joinable | undefined {
  const simple: ValidationIssue[] = [];
  for (const [first, ...others] of found) {
    if (first?.expected === undefined || others.length > 0 || !isShapeIssue(first, depth)) break;
    simple.push(first);
  }
  if (simple.length === found.length) return { picked: simple };
  const tags: ValidationIssue[] = [];
  for (const issues of found) {
    const tag = discriminatorIssue(issues, depth);
    if (tag?.expected === undefined) return undefined;
    const [firstTag] = tags;
    if (firstTag !== undefined && tag.path[depth] !== firstTag.path[depth]) return undefined;
    tags.push(tag);
  }
  const at = tags[0]?.path[depth];
  return at === undefined ? undefined : { picked: tags, at };
}

function summary(found: readonly ValidationIssue[][], depth: number): string {
  const parts = found.slice(0, 4).map((issues, index) => {
    const [first] = issues;
    if (first === undefined) return `(${index + 1}) invalid`;
    const where = first.path.length > depth ? `${renderPath(first.path.slice(depth))}: ` : '';
    return `(${index + 1}) ${where}${first.message}`;
  });
  if (found.length > 4) parts.push('…');
  return parts.join('; ');
}

/** Reports why no branch of an anyOf/oneOf matched `value` (collect mode only). Returns false. */
export function explainNoMatch(state: State, alternatives: Alternatives, value: unknown): false {
  const { keyword, branches } = alternatives;
  const depth = state.path.length;
  const found = branches.map((check) => collect(state, check, value));
  const aimed = found.filter((issues) => !missesShape(issues, depth));
  const [target] = aimed;
  if (aimed.length === 1 && target !== undefined && target.length > 0) {
    addIssues(state, target);
    return false;
  }
  const joined = joinable(found, depth);
  if (joined !== undefined) {
    const detail = join(joined.picked, keyword, describeValue(value));
    return report(state, joined.at === undefined ? detail : { ...detail, at: joined.at });
  }
  const quantity = keyword === 'oneOf' ? 'exactly one' : 'at least one';
  const options = `${quantity} of ${branches.length} alternatives`;
  const message = `expected a value matching ${options}: ${summary(found, depth)}`;
  return report(state, { keyword, message });
}
