// The Roots tab: the folders the client shares with the server (roots/list), edited here and
// sent with Save roots (the backend tells the server they changed).
import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from './api';
import { useReport } from './alerts';
import type { Root, State } from './types';

export function RootsTab(props: { state: State; onState: (state: State) => void }) {
  const report = useReport();
  const [roots, setRoots] = useState<Root[]>(props.state.roots);
  const [uri, setUri] = useState('');
  const [name, setName] = useState('');
  const [saved, setSaved] = useState('');
  const serverRoots = JSON.stringify(props.state.roots);
  useEffect(() => {
    setRoots(props.state.roots);
  }, [serverRoots]);
  const dirty = JSON.stringify(roots) !== serverRoots;
  const save = async () => {
    try {
      props.onState(await api.roots(roots));
      setSaved('Saved: the server was told the roots changed.');
    } catch (error) {
      report(`Saving roots failed: ${errorText(error)}`);
    }
  };
  return (
    <div class="single">
      <header class="panel-head">
        <h2>Roots</h2>
      </header>
      <p class="hint">
        Roots are the folders (file:// URIs) this client shares with the server; a server asks for
        them with roots/list.
      </p>
      {roots.length === 0 ? (
        <p class="muted">No roots.</p>
      ) : (
        <ul class="roots">
          {roots.map((root, i) => (
            <li key={`${root.uri}-${i}`}>
              <code>{root.uri}</code>
              {root.name === undefined ? null : <span> ({root.name})</span>}
              <button
                type="button"
                class="small"
                aria-label={`Remove ${root.uri}`}
                onClick={() => {
                  setRoots(roots.filter((_, j) => j !== i));
                  setSaved('');
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        class="root-add"
        aria-label="Add a root"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = uri.trim();
          if (trimmed === '') return;
          setRoots([
            ...roots,
            { uri: trimmed, ...(name.trim() === '' ? {} : { name: name.trim() }) },
          ]);
          setUri('');
          setName('');
          setSaved('');
        }}
      >
        <div class="field inline grow">
          <label for="root-uri">Root URI</label>
          <input
            id="root-uri"
            type="url"
            placeholder="file:///home/me/project"
            value={uri}
            onInput={(e) => {
              setUri(e.currentTarget.value);
            }}
          />
        </div>
        <div class="field inline">
          <label for="root-name">Root name</label>
          <input
            id="root-name"
            placeholder="project"
            value={name}
            onInput={(e) => {
              setName(e.currentTarget.value);
            }}
          />
        </div>
        <button type="submit">Add root</button>
      </form>
      <div class="actions">
        <button type="button" class="primary" disabled={!dirty} onClick={() => void save()}>
          Save roots
        </button>
        <span class="hint" aria-live="polite">
          {dirty ? 'Not saved yet.' : saved}
        </span>
      </div>
    </div>
  );
}
