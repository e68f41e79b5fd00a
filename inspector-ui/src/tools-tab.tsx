// The Tools tab: the server's tools with their token cost and lint findings, and for the chosen
// one a form generated from its inputSchema, a Raw JSON editor beside it, Call with progress and
// Cancel, and the result.
import { useRef, useState } from 'preact/hooks';
import { api, errorText, newOpId } from './api';
import { AppView } from './apps/app-view';
import { appResourceUri, isAppOnly } from './apps/tool-meta';
import { useReport } from './alerts';
import { LintFindings } from './lint';
import { ProgressBar } from './progress';
import { ResultView, type CallState } from './result-view';
import { initialValue, isRecord } from './schema';
import { RawJsonEditor, SchemaFields, safeId } from './schema-form';
import type { LintFinding, ProgressEvent, State, Tool } from './types';

export function ToolsTab(props: {
  state: State;
  progress: Record<string, ProgressEvent>;
  onShowTasks: () => void;
}) {
  const { state } = props;
  const [selected, setSelected] = useState<string | undefined>();
  const [opened, setOpened] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const tools = state.tools.filter(
    (t) =>
      needle === '' ||
      t.name.toLowerCase().includes(needle) ||
      (t.title ?? '').toLowerCase().includes(needle) ||
      (t.description ?? '').toLowerCase().includes(needle),
  );
  const choose = (name: string) => {
    setSelected(name);
    if (!opened.includes(name)) setOpened([...opened, name]);
  };
  return (
    <div class="split">
      <div class="list-pane">
        <div class="list-head">
          {state.budget === undefined ? null : (
            <p class="total" title={`Counted with ${state.budget.tokenizer}`}>
              Total: {state.budget.total} tokens
            </p>
          )}
          {state.tools.length > 6 ? (
            <input
              type="search"
              aria-label="Search tools"
              placeholder="Search tools"
              value={search}
              onInput={(e) => {
                setSearch(e.currentTarget.value);
              }}
            />
          ) : null}
        </div>
        <LintFindings findings={state.lint?.['*']} label="Lint findings for the server" />
        {state.tools.length === 0 ? (
          <p class="muted">{state.connected ? 'This server lists no tools.' : 'Not connected.'}</p>
        ) : null}
        <ul class="items">
          {tools.map((tool) => (
            <ToolItem
              key={tool.name}
              tool={tool}
              tokens={state.budget?.tools[tool.name]}
              findings={state.lint?.[tool.name]}
              selected={tool.name === selected}
              onSelect={() => {
                choose(tool.name);
              }}
            />
          ))}
        </ul>
      </div>
      <div class="detail-pane">
        {selected === undefined ? (
          <div class="empty">
            <h2>Tools</h2>
            {state.connected ? (
              <p>
                Choose a tool on the left: its arguments become a form, <strong>Call</strong> runs
                it, and the JSON-RPC exchange shows in the <em>Wire</em> tab.
              </p>
            ) : (
              <p>
                Connect to a server with the form on the left (a Streamable HTTP URL such as
                http://127.0.0.1:3000/mcp): its tools show here, each as a form you can call.
              </p>
            )}
          </div>
        ) : null}
        {opened.map((name) => {
          const tool = state.tools.find((t) => t.name === name);
          if (tool === undefined) return null;
          return (
            <div key={name} hidden={name !== selected}>
              <ToolPanel
                active={name === selected}
                connection={state.connection}
                taskOption={taskOption(tool, state)}
                tool={tool}
                tokens={state.budget?.tools[name]}
                findings={state.lint?.[name]}
                progress={props.progress}
                onShowTasks={props.onShowTasks}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * Whether a call may run as a task: the tool says so (2025-11-25 `execution.taskSupport`), or
 * the server takes tasks (2026-07-28 tasks extension: the server decides per call).
 */
function taskOption(tool: Tool, state: State): 'optional' | 'required' | undefined {
  const support = tool.execution?.taskSupport;
  if (support === 'optional' || support === 'required') return support;
  const extensions = state.capabilities?.['extensions'];
  const modernTasks =
    state.era === 'modern' && isRecord(extensions) && TASKS_EXTENSION in extensions;
  return modernTasks ? 'optional' : undefined;
}

const SEVERITY = ['error', 'warning', 'info'];

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

function toolTitle(tool: Tool): string | undefined {
  return tool.title ?? tool.annotations?.title;
}

/**
 * One tool of the list: a button whose accessible name starts with the tool name, then its
 * title, token cost, description and lint findings.
 */
function ToolItem(props: {
  tool: Tool;
  tokens: number | undefined;
  findings: LintFinding[] | undefined;
  selected: boolean;
  onSelect: () => void;
}) {
  const { tool } = props;
  const title = toolTitle(tool);
  // The worst few beside the tool; all of them above its form.
  const findings = [...(props.findings ?? [])].sort(
    (a, b) => SEVERITY.indexOf(a.severity) - SEVERITY.indexOf(b.severity),
  );
  const shown = findings.slice(0, 3);
  return (
    <li>
      <button
        type="button"
        class={props.selected ? 'item selected' : 'item'}
        aria-current={props.selected ? 'true' : undefined}
        onClick={props.onSelect}
      >
        <span class="item-line">
          <span class="item-name">{tool.name}</span>
          {title === undefined ? null : <span class="item-title"> {title}</span>}
          {props.tokens === undefined ? null : <span class="tokens"> {props.tokens} tokens</span>}
          {isAppOnly(tool) ? <span class="tag app-only"> app-only</span> : null}
          {appResourceUri(tool) === undefined ? null : <span class="tag app-tag"> view</span>}
        </span>
        {tool.description === undefined ? null : <span class="desc"> {tool.description}</span>}
        {shown.map((f, i) => (
          <span key={i} class={`lint-inline lint-${f.severity}`}>
            {' '}
            {f.severity}: {f.message}
          </span>
        ))}
        {findings.length > shown.length ? (
          <span class="lint-inline lint-info">
            {' '}
            +{findings.length - shown.length} more findings
          </span>
        ) : null}
      </button>
    </li>
  );
}

function Annotations(props: { tool: Tool }) {
  const a = props.tool.annotations ?? {};
  const tags: string[] = [];
  if (a.readOnlyHint === true) tags.push('read-only');
  if (a.destructiveHint === true) tags.push('destructive');
  if (a.idempotentHint === true) tags.push('idempotent');
  if (a.openWorldHint === true) tags.push('open world');
  const tasks = props.tool.execution?.taskSupport;
  if (tasks === 'optional' || tasks === 'required') tags.push(`tasks ${tasks}`);
  if (props.tool.outputSchema !== undefined) tags.push('structured output');
  if (appResourceUri(props.tool) !== undefined) tags.push('MCP App view');
  if (isAppOnly(props.tool)) tags.push('app-only');
  if (tags.length === 0) return null;
  return (
    <p class="tags">
      {tags.map((t) => (
        <span class="tag" key={t}>
          {t}
        </span>
      ))}
    </p>
  );
}

function ToolPanel(props: {
  /** False while another tool is shown (the panel keeps its state, hidden). */
  active: boolean;
  /** The connection the page is on (an App view belongs to it). */
  connection: number | undefined;
  taskOption: 'optional' | 'required' | undefined;
  tool: Tool;
  tokens: number | undefined;
  findings: LintFinding[] | undefined;
  progress: Record<string, ProgressEvent>;
  onShowTasks: () => void;
}) {
  const { tool } = props;
  const report = useReport();
  const [args, setArgs] = useState(() => initialValue(tool.inputSchema));
  const [raw, setRaw] = useState(false);
  const [rawProblem, setRawProblem] = useState('');
  const taskSupport = props.taskOption;
  const [asTask, setAsTask] = useState(taskSupport === 'required');
  const [call, setCall] = useState<CallState>({ phase: 'idle' });
  const [shownCall, setShownCall] = useState(0);
  const cancelled = useRef(false);
  const id = `tool-${safeId(tool.name)}`;
  const running = call.phase === 'running';

  const run = async () => {
    const opId = newOpId();
    const started = performance.now();
    cancelled.current = false;
    setCall({ phase: 'running', opId, started, cancelling: false });
    try {
      const outcome = await api.request(
        'callTool',
        { name: tool.name, arguments: args, ...(asTask ? { task: true } : {}) },
        opId,
      );
      const ms = Math.round(performance.now() - started);
      setCall({ phase: 'done', outcome, cancelled: cancelled.current, ms, args });
      setShownCall((n) => n + 1);
    } catch (error) {
      setCall({ phase: 'failed', message: errorText(error), cancelled: cancelled.current });
    }
  };
  const cancel = async (opId: string) => {
    cancelled.current = true;
    setCall((c) => (c.phase === 'running' ? { ...c, cancelling: true } : c));
    try {
      await api.cancel(opId);
    } catch (error) {
      report(`Cancel failed: ${errorText(error)}`);
    }
  };
  const title = toolTitle(tool);
  return (
    <article class="tool-panel">
      <header class="panel-head">
        <h2>
          {tool.name}
          {title === undefined ? null : <span class="subtitle"> {title}</span>}
        </h2>
        {props.tokens === undefined ? null : <span class="tokens">{props.tokens} tokens</span>}
      </header>
      {tool.description === undefined ? null : <p class="description">{tool.description}</p>}
      <Annotations tool={tool} />
      <LintFindings findings={props.findings} label={`Lint findings for ${tool.name}`} />
      {isAppOnly(tool) ? (
        <p class="hint app-only-note">
          App-only tool (<code>_meta.ui.visibility: [&quot;app&quot;]</code>): a host does not offer
          it to the model; its view calls it. Calling it from this form is a test of your own.
        </p>
      ) : null}
      <form
        aria-label={`Tool ${tool.name}`}
        noValidate
        class={raw ? 'tool-form with-raw' : 'tool-form'}
        onSubmit={(event) => {
          event.preventDefault();
          if (!running && rawProblem === '') void run();
        }}
      >
        <div class="form-columns">
          <div class="fields">
            <SchemaFields schema={tool.inputSchema} value={args} onChange={setArgs} idPrefix={id} />
          </div>
          {raw && props.active ? (
            <RawJsonEditor
              id={`${id}-raw`}
              label="Arguments (JSON)"
              value={args}
              onChange={setArgs}
              onProblem={setRawProblem}
            />
          ) : null}
        </div>
        {taskSupport === 'optional' || taskSupport === 'required' ? (
          <div class="field check">
            <input
              type="checkbox"
              id={`${id}-task`}
              checked={asTask}
              disabled={taskSupport === 'required'}
              onChange={(e) => {
                setAsTask(e.currentTarget.checked);
              }}
            />
            <label for={`${id}-task`}>Run as a task</label>
          </div>
        ) : null}
        <div class="actions">
          <button type="submit" class="primary" disabled={running || rawProblem !== ''}>
            Call
          </button>
          <button
            type="button"
            aria-pressed={raw}
            onClick={() => {
              setRaw(!raw);
              setRawProblem('');
            }}
          >
            Raw JSON
          </button>
          <button
            type="button"
            disabled={running}
            onClick={() => {
              setArgs(initialValue(tool.inputSchema));
            }}
          >
            Reset
          </button>
          {running ? (
            <>
              <ProgressBar
                progress={props.progress[call.opId]}
                label={`Progress of ${tool.name}`}
              />
              <button
                type="button"
                class="danger"
                disabled={call.cancelling}
                onClick={() => void cancel(call.opId)}
              >
                Cancel
              </button>
            </>
          ) : null}
        </div>
        {rawProblem === '' ? null : <p class="hint invalid">Fix the JSON to call: {rawProblem}</p>}
      </form>
      <ResultView call={call} onShowTasks={props.onShowTasks} />
      <ToolAppView
        key={shownCall}
        tool={tool}
        call={call}
        connection={props.connection}
        onClose={() => {
          setShownCall(-1);
        }}
        closed={shownCall < 0}
      />
    </article>
  );
}

/** The App view of the tool's last call, when the tool has one and the call gave a result. */
function ToolAppView(props: {
  tool: Tool;
  call: CallState;
  connection: number | undefined;
  closed: boolean;
  onClose: () => void;
}) {
  const { tool, call, connection } = props;
  const uri = appResourceUri(tool);
  if (props.closed || uri === undefined || connection === undefined) return null;
  if (call.phase !== 'done' || !call.outcome.ok || call.cancelled) return null;
  const { result } = call.outcome;
  if (!('content' in result)) return null; // A task: no result yet.
  return (
    <AppView
      tool={tool}
      uri={uri}
      args={call.args ?? {}}
      result={result}
      connection={connection}
      onClose={props.onClose}
    />
  );
}
