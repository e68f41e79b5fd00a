// `mcpkit lint` findings, shown beside the tool they concern (worst first; past the first few,
// the rest behind a disclosure).
import type { LintFinding } from './types';

const SEVERITY = ['error', 'warning', 'info'];
const FIRST = 4;

export function LintFindings(props: { findings: LintFinding[] | undefined; label: string }) {
  const findings = [...(props.findings ?? [])].sort(
    (a, b) => SEVERITY.indexOf(a.severity) - SEVERITY.indexOf(b.severity),
  );
  if (findings.length === 0) return null;
  const item = (f: LintFinding, i: number) => (
    <li key={i} class={`lint-${f.severity}`}>
      <span class="sev">{f.severity}</span> <code>{f.rule}</code> {f.message}
    </li>
  );
  return (
    <div class="lint-box">
      <ul class="lint" aria-label={props.label}>
        {findings.slice(0, FIRST).map(item)}
      </ul>
      {findings.length > FIRST ? (
        <details class="lint-more">
          <summary>{findings.length - FIRST} more lint findings</summary>
          <ul class="lint">{findings.slice(FIRST).map((f, i) => item(f, i + FIRST))}</ul>
        </details>
      ) : null}
    </div>
  );
}
