// The Result region of a tool call: the content by type, structuredContent checked against the
// outputSchema, a tool error (isError) apart from a protocol error, and a cancelled call.
import { ContentBlocks, JsonView, LazyDetails } from './content';
import { isRecord } from './schema';
import type { JsonObject, RequestOutcome } from './types';

/** Where a call stands. */
export type CallState =
  | { phase: 'idle' }
  | { phase: 'running'; opId: string; started: number; cancelling: boolean }
  | {
      phase: 'done';
      outcome: RequestOutcome;
      cancelled: boolean;
      ms: number;
      /** The arguments of the call (an App view gets them). */
      args?: JsonObject;
    }
  | { phase: 'failed'; message: string; cancelled: boolean };

/** The region named `Result`. */
export function ResultView(props: { call: CallState; onShowTasks?: () => void }) {
  const { call } = props;
  return (
    <section class="result" role="region" aria-label="Result">
      <h3 class="result-title">Result</h3>
      <ResultBody call={call} {...(props.onShowTasks ? { onShowTasks: props.onShowTasks } : {})} />
    </section>
  );
}

function ResultBody(props: { call: CallState; onShowTasks?: () => void }) {
  const { call } = props;
  switch (call.phase) {
    case 'idle':
      return <p class="muted">Press Call to run the tool: the result shows here.</p>;
    case 'running':
      return <p class="muted">{call.cancelling ? 'Cancelling…' : 'Waiting for the server…'}</p>;
    case 'failed':
      return call.cancelled ? (
        <Cancelled detail={call.message} />
      ) : (
        <div role="alert" class="error-box">
          <h4>Request failed</h4>
          <p>{call.message}</p>
        </div>
      );
    case 'done':
      return <Outcome {...props} outcome={call.outcome} cancelled={call.cancelled} ms={call.ms} />;
  }
}

/** The error a server answers when the user must first open a URL (2025-11-25). */
const URL_ELICITATION_REQUIRED = -32042;

/** The URLs a -32042 error asks the user to open, as links (then Call again). */
function UrlsToOpen(props: { data: unknown }) {
  const list = isRecord(props.data) ? props.data['elicitations'] : undefined;
  if (!Array.isArray(list)) return null;
  return (
    <div class="urls">
      <p>
        The server needs you to open {list.length === 1 ? 'this address' : 'these addresses'} first,
        then call again:
      </p>
      <ul>
        {list.map((item, i) => {
          if (!isRecord(item) || typeof item['url'] !== 'string') return null;
          const url = item['url'];
          const message = typeof item['message'] === 'string' ? item['message'] : '';
          return (
            <li key={i}>
              {/^https?:\/\//i.test(url) ? (
                <a href={url} target="_blank" rel="noopener noreferrer">
                  {url}
                </a>
              ) : (
                <code>{url}</code>
              )}
              {message === '' ? null : <span> — {message}</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Cancelled(props: { detail?: string }) {
  return (
    <div class="cancelled">
      <h4>Cancelled</h4>
      {props.detail === undefined ? null : <p class="muted">{props.detail}</p>}
    </div>
  );
}

function Outcome(props: {
  outcome: RequestOutcome;
  cancelled: boolean;
  ms: number;
  onShowTasks?: () => void;
}) {
  const { outcome, cancelled, ms } = props;
  if (!outcome.ok) {
    const { error } = outcome;
    if (cancelled) return <Cancelled detail={error.message} />;
    return (
      <div role="alert" class="error-box">
        <h4>{error.kind === 'protocol' ? 'Protocol error' : 'Request failed'}</h4>
        <p>
          {error.code === undefined ? null : <code class="code-badge">{error.code}</code>}{' '}
          {error.message}
        </p>
        {error.code === URL_ELICITATION_REQUIRED ? <UrlsToOpen data={error.data} /> : null}
        {error.data === undefined ? null : <JsonView value={error.data} label="Error data" />}
      </div>
    );
  }
  const { result } = outcome;
  if (isRecord(result['task']) && !('content' in result)) {
    const task = result['task'];
    return (
      <div class="task-started">
        <h4>Task started</h4>
        <p>
          Task <code>{String(task['taskId'])}</code> is <strong>{String(task['status'])}</strong>.
          The server runs it in the background.{' '}
          {props.onShowTasks === undefined ? null : (
            <button type="button" class="link" onClick={props.onShowTasks}>
              Follow it in the Tasks tab
            </button>
          )}
        </p>
      </div>
    );
  }
  const isError = result['isError'] === true;
  return (
    <div class={isError ? 'tool-error' : 'tool-ok'}>
      {cancelled ? <p class="muted">(It finished before the cancel reached the server.)</p> : null}
      {isError ? <h4>Tool error</h4> : null}
      <ContentBlocks content={result['content'] ?? []} />
      {'structuredContent' in result ? (
        <div class="structured">
          <h4>Structured content</h4>
          <JsonView value={result['structuredContent']} label="Structured content" />
        </div>
      ) : null}
      {outcome.outputCheck === undefined ? null : outcome.outputCheck.valid ? (
        <p class="check-ok">Output matches outputSchema</p>
      ) : (
        <p class="check-bad">
          Output does not match outputSchema: {(outcome.outputCheck.errors ?? []).join('; ')}
        </p>
      )}
      <LazyDetails summary={`Raw result · ${ms} ms`} value={result} />
    </div>
  );
}
