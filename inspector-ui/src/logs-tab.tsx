// The Logs tab: the level the server logs at (logging/setLevel) and the messages it sent.
import { useState } from 'preact/hooks';
import { errorText, mcp } from './api';
import { useReport } from './alerts';
import type { LogEvent, State } from './types';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A log message as received, with the time it arrived. */
export interface LogEntry extends LogEvent {
  time: number;
}

export function LogsTab(props: { state: State; logs: LogEntry[]; onClear: () => void }) {
  const report = useReport();
  const [level, setLevel] = useState(props.state.logLevel ?? '');
  const canLog = props.state.capabilities === undefined || 'logging' in props.state.capabilities;
  const change = async (next: string) => {
    const before = level;
    setLevel(next);
    try {
      await mcp('setLogLevel', { level: next });
    } catch (error) {
      setLevel(before);
      report(`Setting the log level failed: ${errorText(error)}`);
    }
  };
  return (
    <div class="single">
      <header class="panel-head">
        <h2>Logs</h2>
        <div class="field inline">
          <label for="log-level">Log level</label>
          <select
            id="log-level"
            value={level}
            disabled={!props.state.connected || !canLog}
            onChange={(e) => void change(e.currentTarget.value)}
          >
            <option value="" disabled>
              (server default)
            </option>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={props.onClear} disabled={props.logs.length === 0}>
          Clear
        </button>
      </header>
      {canLog ? null : <p class="hint">This server does not declare the logging capability.</p>}
      {props.logs.length === 0 ? (
        <p class="muted">No log messages yet.</p>
      ) : (
        <ol class="log-list" aria-label="Log messages">
          {props.logs.map((entry, i) => (
            <li key={i} class={`log-${entry.level}`}>
              <time>{new Date(entry.time).toLocaleTimeString()}</time>
              <span class={`level level-${entry.level}`}>{entry.level}</span>
              {entry.logger === undefined ? null : <span class="logger">{entry.logger}</span>}
              <span class="data">
                {typeof entry.data === 'string' ? entry.data : JSON.stringify(entry.data)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
