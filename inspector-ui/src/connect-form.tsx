// The Connect form: a Streamable HTTP URL with headers, or (with --allow-stdio) a command line,
// and the protocol revision (auto, or one pinned).
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type ConnectTarget } from './api';
import { joinCommandLine, parseHeaderLines, splitCommandLine } from './command-line';
import type { State } from './types';

/** The revisions mcpkit speaks, oldest first (src/protocol/version.ts PROTOCOL_REVISIONS). */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

const MASKED = '•••';

export function ConnectForm(props: { state: State | undefined; onState: (state: State) => void }) {
  const { state } = props;
  const [transport, setTransport] = useState<'url' | 'command'>('url');
  const [url, setUrl] = useState('');
  const [command, setCommand] = useState('');
  const [headers, setHeaders] = useState('');
  const [mode, setMode] = useState('auto');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  // Set once the user types here: from then on the form is theirs.
  const [edited, setEdited] = useState(false);
  const [filledFrom, setFilledFrom] = useState('');

  // The server's target (given on the command line, or connected in another tab) fills the form
  // until the user edits it.
  useEffect(() => {
    if (edited || state?.target === undefined) return;
    const key = JSON.stringify([state.target, state.mode]);
    if (key === filledFrom) return;
    setFilledFrom(key);
    setMode(state.mode);
    const target = state.target;
    if (target.kind === 'url') {
      setTransport('url');
      setUrl(target.url);
      const lines = Object.entries(target.headers ?? {}).filter(([, v]) => v !== MASKED);
      setHeaders(lines.map(([k, v]) => `${k}: ${v}`).join('\n'));
    } else {
      setTransport('command');
      setCommand(joinCommandLine([target.command, ...(target.args ?? [])]));
    }
  }, [state, edited, filledFrom]);

  const allowStdio = state?.allowStdio === true;
  const connected = state?.connected === true;
  const masked = Object.entries(
    state?.target?.kind === 'url' ? (state.target.headers ?? {}) : {},
  ).filter(([, v]) => v === MASKED);

  const connect = async () => {
    setProblem('');
    let target: ConnectTarget;
    try {
      if (transport === 'url') {
        const parsed = parseHeaderLines(headers);
        target = {
          kind: 'url',
          url: url.trim(),
          ...(Object.keys(parsed).length === 0 ? {} : { headers: parsed }),
        };
      } else {
        const [program, ...args] = splitCommandLine(command);
        if (program === undefined)
          throw new Error('Command: write the command that starts the server');
        target = { kind: 'command', command: program, args };
      }
    } catch (error) {
      setProblem(errorText(error));
      return;
    }
    setBusy(true);
    try {
      props.onState(await api.connect(target, mode));
    } catch (error) {
      setProblem(`Connect failed: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };
  const disconnect = async () => {
    setProblem('');
    try {
      props.onState(await api.disconnect());
    } catch (error) {
      setProblem(`Disconnect failed: ${errorText(error)}`);
    }
  };
  const connecting = busy || state?.connecting === true;
  return (
    <form
      aria-label="Connect"
      class="connect"
      onInput={() => {
        setEdited(true);
      }}
      onChange={() => {
        setEdited(true);
      }}
      onSubmit={(event) => {
        event.preventDefault();
        void connect();
      }}
    >
      <h2>Connection</h2>
      <div class="field">
        <label for="transport">Transport</label>
        <select
          id="transport"
          value={transport}
          onChange={(e) => {
            setTransport(e.currentTarget.value === 'command' ? 'command' : 'url');
          }}
        >
          <option value="url">Streamable HTTP</option>
          <option value="command" disabled={!allowStdio}>
            stdio command
          </option>
        </select>
        {allowStdio ? null : (
          <p class="hint">To start a server as a command, run mcpkit inspect --allow-stdio.</p>
        )}
      </div>
      {transport === 'url' ? (
        <>
          <div class="field">
            <label for="server-url">Server URL</label>
            <input
              id="server-url"
              type="url"
              required
              placeholder="http://127.0.0.1:3000/mcp"
              value={url}
              onInput={(e) => {
                setUrl(e.currentTarget.value);
              }}
            />
          </div>
          <div class="field">
            <label for="headers">Headers</label>
            <textarea
              id="headers"
              rows={2}
              class="code"
              placeholder="Authorization: Bearer …"
              spellcheck={false}
              value={headers}
              aria-describedby="headers-hint"
              onInput={(e) => {
                setHeaders(e.currentTarget.value);
              }}
            />
            <p class="hint" id="headers-hint">
              One <code>Name: value</code> per line.
              {masked.length === 0
                ? ''
                : ` Hidden here: ${masked.map(([k]) => k).join(', ')} (given on the command line; type them again to reconnect with them).`}
            </p>
          </div>
        </>
      ) : (
        <div class="field">
          <label for="command">Command</label>
          <input
            id="command"
            class="code"
            required
            placeholder="npx -y @modelcontextprotocol/server-everything"
            spellcheck={false}
            value={command}
            onInput={(e) => {
              setCommand(e.currentTarget.value);
            }}
          />
          <p class="hint">The whole command line; quote words that hold spaces.</p>
        </div>
      )}
      <div class="field">
        <label for="revision">Protocol revision</label>
        <select
          id="revision"
          value={mode}
          onChange={(e) => {
            setMode(e.currentTarget.value);
          }}
        >
          <option value="auto">auto</option>
          {REVISIONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={connecting} aria-busy={connecting}>
          Connect
        </button>
        {connected ? (
          <button type="button" onClick={() => void disconnect()}>
            Disconnect
          </button>
        ) : null}
      </div>
      {connecting ? <p class="hint">Connecting…</p> : null}
      {problem === '' ? null : (
        <p role="alert" class="error-box">
          {problem}
        </p>
      )}
      {problem === '' && state?.error !== undefined && !state.connected && !connecting ? (
        <p role="alert" class="error-box">
          Could not connect: {state.error}
        </p>
      ) : null}
    </form>
  );
}
