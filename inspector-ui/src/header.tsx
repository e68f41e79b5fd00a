// The page header: the server's name and version, the revision badge and the connection status.
import type { State } from './types';

export function Header(props: { state: State | undefined }) {
  const { state } = props;
  const info = state?.serverInfo;
  const status =
    state?.connected === true
      ? 'Connected'
      : state?.connecting === true
        ? 'Connecting…'
        : 'Disconnected';
  return (
    <header class="top">
      <h1>
        mcpkit <span>inspect</span>
      </h1>
      {state?.connected === true && info !== undefined ? (
        <p class="server-name">
          <strong>{info.title ?? info.name ?? 'server'}</strong>
          {info.version === undefined ? null : <span class="version"> {info.version}</span>}
        </p>
      ) : null}
      {state?.connected === true && state.revision !== undefined ? (
        <span class={`badge era-${state.era ?? 'legacy'}`} title="Protocol revision">
          {state.revision}
        </span>
      ) : null}
      <span class={`conn conn-${status === 'Connected' ? 'on' : 'off'}`}>
        <span class="dot" aria-hidden="true" />
        <span role="status">{status}</span>
      </span>
    </header>
  );
}
