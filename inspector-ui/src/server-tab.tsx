// The Server tab: who the server is, the revision agreed or discovered, its capabilities and
// instructions, and a ping.
import { useState } from 'preact/hooks';
import { describeTarget, errorText, mcp } from './api';
import { useReport } from './alerts';
import { JsonView } from './content';
import type { State } from './types';

export function ServerTab(props: { state: State }) {
  const { state } = props;
  const report = useReport();
  const [ping, setPing] = useState('');
  const doPing = async () => {
    const started = performance.now();
    try {
      await mcp('ping');
      setPing(`Pong in ${Math.round(performance.now() - started)} ms.`);
    } catch (error) {
      setPing('');
      report(`Ping failed: ${errorText(error)}`);
    }
  };
  if (!state.connected) {
    return (
      <div class="single">
        <h2>Server</h2>
        <p class="muted">Not connected: connect to a server with the form on the left.</p>
      </div>
    );
  }
  const info = state.serverInfo ?? {};
  const { name, version, title, ...rest } = info;
  return (
    <div class="single">
      <header class="panel-head">
        <h2>
          {title ?? name ?? 'Server'}
          {version === undefined ? null : <span class="subtitle"> {version}</span>}
        </h2>
        <button type="button" onClick={() => void doPing()}>
          Ping
        </button>
        <span class="hint" aria-live="polite">
          {ping}
        </span>
      </header>
      <dl class="facts">
        <dt>Name</dt>
        <dd>{name ?? '—'}</dd>
        <dt>Version</dt>
        <dd>{version ?? '—'}</dd>
        <dt>Protocol revision</dt>
        <dd>
          {state.revision ?? '—'}
          {state.era === undefined ? null : (
            <span class="hint">
              {' '}
              (
              {state.era === 'modern'
                ? 'modern era: discovered, sent with every request'
                : 'legacy era: agreed in initialize'}
              )
            </span>
          )}
        </dd>
        <dt>Target</dt>
        <dd>{state.target === undefined ? '—' : <code>{describeTarget(state.target)}</code>}</dd>
        {Object.keys(rest).length === 0 ? null : (
          <>
            <dt>More</dt>
            <dd>
              <JsonView value={rest} />
            </dd>
          </>
        )}
      </dl>
      <h3>Instructions</h3>
      {state.instructions === undefined || state.instructions === '' ? (
        <p class="muted">The server gives no instructions.</p>
      ) : (
        <pre class="text instructions">{state.instructions}</pre>
      )}
      <h3>Capabilities</h3>
      <JsonView value={state.capabilities ?? {}} label="Capabilities" />
    </div>
  );
}
