// The Resources tab: the server's resources and templates (a form per template, its variables
// completed as they are typed), the contents of the one read, Subscribe/Unsubscribe, and the
// updates the server announced (the contents are read again on each).
import { useEffect, useState } from 'preact/hooks';
import { errorText, mcp } from './api';
import { CompletionInput } from './completion-input';
import { ResourceContents } from './content';
import { completer } from './prompts-tab';
import { isRecord } from './schema';
import { safeId } from './schema-form';
import type { Resource, ResourceTemplate, State } from './types';
import { expandTemplate, templateVariables } from './uri-template';

export interface ResourceUpdate {
  uri: string;
  time: number;
}

export function ResourcesTab(props: { state: State; updates: ResourceUpdate[] }) {
  const { state, updates } = props;
  const [uri, setUri] = useState<string | undefined>();
  const [contents, setContents] = useState<unknown[] | undefined>();
  const [error, setError] = useState('');
  const [subscribed, setSubscribed] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const read = async (target: string) => {
    setUri(target);
    setBusy(true);
    setError('');
    try {
      const result = await mcp<{ contents?: unknown[] }>('readResource', { uri: target });
      setContents(result.contents ?? []);
    } catch (failure) {
      setContents(undefined);
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  const latest = updates.at(-1);
  useEffect(() => {
    if (latest !== undefined && latest.uri === uri) void read(uri);
    // Only a new update re-reads.
  }, [latest]);

  const toggle = async (target: string) => {
    const on = subscribed.includes(target);
    setError('');
    try {
      await mcp(on ? 'unsubscribe' : 'subscribe', { uri: target });
      setSubscribed(on ? subscribed.filter((u) => u !== target) : [...subscribed, target]);
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const resourcesCap = state.capabilities?.['resources'];
  const canSubscribe =
    state.capabilities === undefined ||
    (isRecord(resourcesCap) && resourcesCap['subscribe'] === true);
  const shown = updates.slice(-50).reverse();
  return (
    <div class="split">
      <div class="list-pane">
        <h3 class="pane-title">Resources</h3>
        {state.resources.length === 0 ? (
          <p class="muted">{state.connected ? 'No resources listed.' : 'Not connected.'}</p>
        ) : null}
        <ul class="items">
          {state.resources.map((r) => (
            <ResourceItem
              key={r.uri}
              resource={r}
              selected={r.uri === uri}
              onSelect={() => void read(r.uri)}
            />
          ))}
        </ul>
        <h3 class="pane-title">Templates</h3>
        {state.resourceTemplates.length === 0 ? <p class="muted">No resource templates.</p> : null}
        {state.resourceTemplates.map((t) => (
          <TemplateForm
            key={t.uriTemplate}
            template={t}
            state={state}
            onRead={(u) => void read(u)}
          />
        ))}
      </div>
      <div class="detail-pane">
        <section role="region" aria-label="Resource contents" class="result">
          {uri === undefined ? (
            <div class="empty">
              <h2>Resources</h2>
              <p>Choose a resource, or fill a template and press Read: its contents show here.</p>
            </div>
          ) : (
            <>
              <header class="panel-head">
                <h2 class="uri">{uri}</h2>
                <div class="actions">
                  <button type="button" disabled={busy} onClick={() => void read(uri)}>
                    Read again
                  </button>
                  <button
                    type="button"
                    disabled={!canSubscribe}
                    title={canSubscribe ? undefined : 'The server does not offer subscriptions'}
                    onClick={() => void toggle(uri)}
                  >
                    {subscribed.includes(uri) ? 'Unsubscribe' : 'Subscribe'}
                  </button>
                </div>
              </header>
              {error === '' ? null : (
                <p role="alert" class="error-box">
                  {error}
                </p>
              )}
              {busy && contents === undefined ? <p class="muted">Reading…</p> : null}
              {contents === undefined ? null : <ResourceContents contents={contents} />}
            </>
          )}
        </section>
        {subscribed.length === 0 && updates.length === 0 ? null : (
          <section class="updates">
            <h3>Updates</h3>
            {subscribed.length === 0 ? null : (
              <p class="hint">Subscribed to: {subscribed.join(', ')}</p>
            )}
            {shown.length === 0 ? (
              <p class="muted">No update yet.</p>
            ) : (
              <ul class="update-list">
                {shown.map((u, i) => (
                  <li key={`${u.time}-${i}`}>
                    <time>{new Date(u.time).toLocaleTimeString()}</time> <code>{u.uri}</code>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
      </div>
    </div>
  );
}

function ResourceItem(props: { resource: Resource; selected: boolean; onSelect: () => void }) {
  const { resource: r } = props;
  return (
    <li>
      <button
        type="button"
        class={props.selected ? 'item selected' : 'item'}
        aria-current={props.selected ? 'true' : undefined}
        onClick={props.onSelect}
      >
        <span class="item-line">
          <span class="item-name">{r.name ?? r.uri}</span>
          {r.title === undefined ? null : <span class="item-title"> {r.title}</span>}
        </span>
        <span class="desc mono">
          {' '}
          {r.uri}
          {r.mimeType === undefined ? '' : ` · ${r.mimeType}`}
        </span>
      </button>
    </li>
  );
}

function TemplateForm(props: {
  template: ResourceTemplate;
  state: State;
  onRead: (uri: string) => void;
}) {
  const { template } = props;
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = expandTemplate(template.uriTemplate, values);
  const name = template.name ?? template.uriTemplate;
  const id = `template-${safeId(name)}`;
  const complete = completer(props.state, { type: 'ref/resource', uri: template.uriTemplate });
  return (
    <form
      class="template"
      aria-label={`Template ${name}`}
      onSubmit={(event) => {
        event.preventDefault();
        props.onRead(uri);
      }}
    >
      <p class="template-head">
        <strong>{template.title ?? name}</strong> <code>{template.uriTemplate}</code>
      </p>
      {template.description === undefined ? null : <p class="hint">{template.description}</p>}
      {variables.map((v) => (
        <div class="field inline" key={v}>
          <label for={`${id}-${safeId(v)}`}>{v}</label>
          <CompletionInput
            id={`${id}-${safeId(v)}`}
            name={v}
            value={values[v] ?? ''}
            required
            complete={complete?.(
              v,
              Object.fromEntries(Object.entries(values).filter(([k, x]) => k !== v && x !== '')),
            )}
            onChange={(text) => {
              setValues((old) => ({ ...old, [v]: text }));
            }}
          />
        </div>
      ))}
      <div class="actions">
        <button type="submit">Read</button>
        <code class="hint">{uri}</code>
      </div>
    </form>
  );
}
