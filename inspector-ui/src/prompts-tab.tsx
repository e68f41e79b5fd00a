// The Prompts tab: the server's prompts, a form with an input per argument that completes as
// the user types (completion/complete), Get prompt, and the messages it returns.
import { useState } from 'preact/hooks';
import { errorText, mcp } from './api';
import { CompletionInput } from './completion-input';
import { ContentBlocks } from './content';
import { RequiredMark, safeId } from './schema-form';
import { isRecord } from './schema';
import type { Prompt, State } from './types';

/** Asks completion/complete for one argument, with the other arguments as context. */
export function completer(
  state: State,
  ref: Record<string, unknown>,
):
  | ((argument: string, others: Record<string, string>) => (value: string) => Promise<string[]>)
  | undefined {
  if (state.capabilities !== undefined && state.capabilities['completions'] === undefined) {
    return undefined;
  }
  return (argument, others) => async (value) => {
    const result = await mcp<{ completion?: { values?: unknown[] } }>('complete', {
      ref,
      argument: { name: argument, value },
      ...(Object.keys(others).length === 0 ? {} : { context: { arguments: others } }),
    });
    return (result.completion?.values ?? []).filter((v): v is string => typeof v === 'string');
  };
}

export function PromptsTab(props: { state: State }) {
  const { state } = props;
  const [selected, setSelected] = useState<string | undefined>();
  const prompt = state.prompts.find((p) => p.name === selected);
  return (
    <div class="split">
      <div class="list-pane">
        {state.prompts.length === 0 ? (
          <p class="muted">
            {state.connected ? 'This server lists no prompts.' : 'Not connected.'}
          </p>
        ) : null}
        <ul class="items">
          {state.prompts.map((p) => (
            <li key={p.name}>
              <button
                type="button"
                class={p.name === selected ? 'item selected' : 'item'}
                aria-current={p.name === selected ? 'true' : undefined}
                onClick={() => {
                  setSelected(p.name);
                }}
              >
                <span class="item-line">
                  <span class="item-name">{p.name}</span>
                  {p.title === undefined ? null : <span class="item-title"> {p.title}</span>}
                </span>
                {p.description === undefined ? null : <span class="desc"> {p.description}</span>}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class="detail-pane">
        {prompt === undefined ? (
          <div class="empty">
            <h2>Prompts</h2>
            <p>Choose a prompt: fill in its arguments (the server suggests values as you type).</p>
          </div>
        ) : (
          <PromptPanel key={prompt.name} prompt={prompt} state={state} />
        )}
      </div>
    </div>
  );
}

function PromptPanel(props: { prompt: Prompt; state: State }) {
  const { prompt } = props;
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Record<string, unknown> | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const complete = completer(props.state, { type: 'ref/prompt', name: prompt.name });
  const id = `prompt-${safeId(prompt.name)}`;
  const filled = () =>
    Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')) as Record<
      string,
      string
    >;
  const get = async () => {
    setBusy(true);
    setError('');
    try {
      setResult(await mcp('getPrompt', { name: prompt.name, arguments: filled() }));
    } catch (failure) {
      setResult(undefined);
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  const messages = Array.isArray(result?.['messages']) ? (result['messages'] as unknown[]) : [];
  return (
    <article>
      <header class="panel-head">
        <h2>
          {prompt.name}
          {prompt.title === undefined ? null : <span class="subtitle"> {prompt.title}</span>}
        </h2>
      </header>
      {prompt.description === undefined ? null : <p class="description">{prompt.description}</p>}
      <form
        aria-label={`Prompt ${prompt.name}`}
        class="tool-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void get();
        }}
      >
        {(prompt.arguments ?? []).length === 0 ? <p class="muted">No arguments.</p> : null}
        {(prompt.arguments ?? []).map((arg) => {
          const fieldId = `${id}-${safeId(arg.name)}`;
          const others = Object.fromEntries(
            Object.entries(filled()).filter(([name]) => name !== arg.name),
          );
          return (
            <div class="field" key={arg.name}>
              <div class="label-row">
                <label for={fieldId}>
                  <span class="prop">{arg.name}</span>
                  {arg.title === undefined ? '' : ` — ${arg.title}`}
                </label>
                {arg.required === true ? <RequiredMark /> : null}
              </div>
              <CompletionInput
                id={fieldId}
                name={arg.name}
                value={values[arg.name] ?? ''}
                required={arg.required === true}
                complete={complete?.(arg.name, others)}
                {...(arg.description === undefined ? {} : { describedBy: `${fieldId}-hint` })}
                onChange={(v) => {
                  setValues((old) => ({ ...old, [arg.name]: v }));
                }}
              />
              {arg.description === undefined ? null : (
                <p class="hint" id={`${fieldId}-hint`}>
                  {arg.description}
                </p>
              )}
            </div>
          );
        })}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Get prompt
          </button>
        </div>
      </form>
      {error === '' ? null : (
        <p role="alert" class="error-box">
          {error}
        </p>
      )}
      <section role="region" aria-label="Prompt messages" class="result">
        {result === undefined ? (
          <p class="muted">The prompt&apos;s messages show here.</p>
        ) : (
          <>
            {typeof result['description'] === 'string' ? (
              <p class="description">{result['description']}</p>
            ) : null}
            <ol class="messages">
              {messages.map((m, i) => (
                <li key={i} class="message">
                  <span class="role">{isRecord(m) ? String(m['role']) : '?'}</span>
                  <ContentBlocks content={isRecord(m) ? m['content'] : m} />
                </li>
              ))}
            </ol>
          </>
        )}
      </section>
    </article>
  );
}
