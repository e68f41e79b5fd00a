// `mcpkit lint` findings, shown beside the tool they concern.
import type { LintFinding } from './types';

export function LintFindings(props: { findings: LintFinding[] | undefined; label: string }) {
  const findings = props.findings ?? [];
  if (findings.length === 0) return null;
  return (
    <ul class="lint" aria-label={props.label}>
      {findings.map((f, i) => (
        <li key={i} class={`lint-${f.severity}`}>
          <span class="sev">{f.severity}</span> <code>{f.rule}</code> {f.message}
        </li>
      ))}
    </ul>
  );
}
