// The SDK tier figures: the suite's frozen per-revision requirement sets (`--requirements
// <revision>`, 0.2.0-alpha.11 onward), scored as its `tier-check` scores them, and printed in
// its format. tier-check itself needs GitHub (it assesses a repository: labels, triage, releases),
// so `npm run conformance` runs the requirement sets itself and scores only the conformance part.
//
// The rule, as tier-check applies it (its `dist/index.js`, 0.2.0-alpha.12): a required scenario
// passes when its checks.json has at least one SUCCESS and no FAILURE; a revision's scenarios
// that were not run count as failed; scenarios listed as "never scored" (extensions, added after
// the release, pending) are run and reported but do not count. Server and client are each scored
// over every revision together: Tier 1 needs 100 % of both, Tier 2 at least 80 %.

/** The requirement sets `npm run conformance` scores: every frozen revision mcpkit speaks. */
export const REQUIREMENT_REVISIONS = ['2025-11-25', '2026-07-28'];

/**
 * Parses `conformance list --requirements <revision>`: the required server and client scenarios,
 * and the ones run but never scored, with their reason and side.
 */
export function parseRequirements(output) {
  const sets = { server: [], client: [], notScored: [] };
  let section;
  let reason;
  for (const line of output.split('\n')) {
    if (line.startsWith('Server scenarios')) section = 'server';
    else if (line.startsWith('Client scenarios')) section = 'client';
    else if (line.startsWith('Run and reported, but never scored')) section = 'notScored';
    else if (section === 'notScored' && /^ {2}(\S+) \(\d+\):$/.test(line)) {
      reason = /^ {2}(\S+)/.exec(line)[1];
    } else {
      const item = /^\s+- (\S+)(?: \[(server|client)\])?$/.exec(line);
      if (item === null || section === undefined) continue;
      if (section === 'notScored')
        sets.notScored.push({ scenario: item[1], side: item[2], reason });
      else sets[section].push(item[1]);
    }
  }
  return sets;
}

/** Whether a scenario passed as tier-check counts it: some SUCCESS and no FAILURE. */
export function tierPassed(checks) {
  if (checks === undefined) return false;
  return checks.some((c) => c.status === 'SUCCESS') && !checks.some((c) => c.status === 'FAILURE');
}

/**
 * Scores the requirement runs. `scored` is one entry per revision and side:
 * `{ revision, side, sets, results }` (results: scenario -> checks).
 */
export function scoreTiers(scored) {
  const sides = { server: { passed: 0, total: 0 }, client: { passed: 0, total: 0 } };
  const failing = [];
  const notScored = [];
  const perRevision = [];
  for (const { revision, side, sets, results } of scored) {
    let passed = 0;
    for (const scenario of sets[side]) {
      const ok = tierPassed(results.get(scenario));
      if (ok) passed++;
      else failing.push(`${side}: ${scenario} [${revision}]`);
    }
    sides[side].passed += passed;
    sides[side].total += sets[side].length;
    perRevision.push({ revision, side, passed, total: sets[side].length });
    for (const extra of sets.notScored.filter((n) => n.side === side)) {
      const checks = results.get(extra.scenario);
      if (checks === undefined) continue; // not run on this side
      notScored.push({ ...extra, revision, passed: tierPassed(checks) });
    }
  }
  return { sides, failing, notScored, perRevision };
}

const percent = (s) => (s.total === 0 ? 0 : Math.round((s.passed / s.total) * 100));

/** The tier table, in the format of tier-check's terminal output (its Conformance section). */
export function formatTiers(score, revisions) {
  const { sides, failing, notScored, perRevision } = score;
  const lines = [
    `Conformance (as \`conformance tier-check --requirements ${revisions.join(',')}\` scores it):`,
    '',
    `  Scored against ${revisions.join(' and ')}, each run at its own wire version.`,
    '',
  ];
  for (const [label, side] of [
    ['Server', sides.server],
    ['Client', sides.client],
  ]) {
    const figure =
      side.total === 0
        ? 'not run'
        : `${String(side.passed)}/${String(side.total)} required scenarios (${String(percent(side))}%)`;
    lines.push(`    ${label.padEnd(8)} ${figure}`);
  }
  if (failing.length > 0) {
    lines.push('', `  Failing (${String(failing.length)}):`);
    for (const item of failing) lines.push(`    ✗ ${item}`);
  }
  if (notScored.length > 0) {
    const failed = notScored.filter((n) => !n.passed).length;
    lines.push(
      '',
      `  Not scored (${String(notScored.length)} run, ${String(failed)} failing, no effect on tier):`,
    );
    for (const n of notScored) {
      lines.push(`    ${n.passed ? '✓' : '✗'} ${n.scenario} [${n.revision}] (${n.reason})`);
    }
  }
  lines.push('', '  Per revision:');
  for (const revision of revisions) {
    const cell = (side) => perRevision.find((p) => p.revision === revision && p.side === side);
    const [server, client] = [cell('server'), cell('client')];
    const said = (c) => (c === undefined ? 'not run' : `${String(c.passed)}/${String(c.total)}`);
    lines.push(`    ${revision}  server ${said(server)}, client ${said(client)}`);
  }
  const rate = (s) => (s.total === 0 ? 0 : s.passed / s.total);
  const tier1 = rate(sides.server) >= 1 && rate(sides.client) >= 1;
  const tier2 = rate(sides.server) >= 0.8 && rate(sides.client) >= 0.8;
  lines.push(
    '',
    `  Conformance: ${tier1 ? 'meets Tier 1 (100 % server and client)' : tier2 ? 'meets Tier 2, not Tier 1 (at least 80 %, not 100 %)' : 'below Tier 2 (under 80 %)'}; the other tier checks (labels, triage, releases) assess a GitHub repository and are not run here.`,
  );
  return lines.join('\n');
}
