// Types of conformance/tiers.mjs (the SDK tier figures of `npm run conformance`).

/** One check of a scenario's checks.json. */
export interface Check {
  readonly id: string;
  readonly status: string;
}

/** What `conformance list --requirements <revision>` lists. */
export interface RequirementSets {
  server: string[];
  client: string[];
  notScored: {
    scenario: string;
    side: 'server' | 'client' | undefined;
    reason: string | undefined;
  }[];
}

export interface Score {
  sides: Record<'server' | 'client', { passed: number; total: number }>;
  failing: string[];
  notScored: {
    scenario: string;
    side: 'server' | 'client' | undefined;
    reason: string | undefined;
    revision: string;
    passed: boolean;
  }[];
  perRevision: { revision: string; side: 'server' | 'client'; passed: number; total: number }[];
}

export const REQUIREMENT_REVISIONS: readonly string[];
export function parseRequirements(output: string): RequirementSets;
export function tierPassed(checks: readonly Check[] | undefined): boolean;
export function scoreTiers(
  scored: readonly {
    revision: string;
    side: 'server' | 'client';
    sets: RequirementSets;
    results: ReadonlyMap<string, readonly Check[]>;
  }[],
): Score;
export function formatTiers(score: Score, revisions: readonly string[]): string;
