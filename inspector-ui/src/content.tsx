// MCP content shown by type: text, image, audio, resource links that open, embedded resources
// (tool results, prompt messages, sampling messages and resource reads share it).
import { useState } from 'preact/hooks';
import { errorText, mcp } from './api';
import { isRecord } from './schema';

/** Any JSON, pretty-printed. */
export function JsonView(props: { value: unknown; label?: string }) {
  return (
    <pre class="json" aria-label={props.label}>
      {JSON.stringify(props.value, null, 2)}
    </pre>
  );
}

/** A closed <details> whose JSON is drawn only once it is opened (it would repeat the text). */
export function LazyDetails(props: { summary: string; value: unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      class="raw"
      onToggle={(event) => {
        setOpen(event.currentTarget.open);
      }}
    >
      <summary>{props.summary}</summary>
      {open ? <JsonView value={props.value} /> : null}
    </details>
  );
}

/** A list of content blocks (a single block is accepted as a list of one). */
export function ContentBlocks(props: { content: unknown }) {
  const blocks = Array.isArray(props.content) ? (props.content as unknown[]) : [props.content];
  return (
    <div class="blocks">
      {blocks.map((block, i) => (
        <ContentBlock key={i} block={block} />
      ))}
    </div>
  );
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function ContentBlock(props: { block: unknown }) {
  const { block } = props;
  if (!isRecord(block)) return <JsonView value={block} />;
  const annotations = isRecord(block['annotations']) ? block['annotations'] : undefined;
  return (
    <div class="block">
      <BlockBody block={block} />
      {annotations === undefined ? null : (
        <p class="annotations">annotations: {JSON.stringify(annotations)}</p>
      )}
    </div>
  );
}

function BlockBody(props: { block: Record<string, unknown> }) {
  const { block } = props;
  const mime = str(block['mimeType']) ?? '';
  const data = str(block['data']) ?? '';
  switch (block['type']) {
    case 'text':
      return <pre class="text">{str(block['text']) ?? ''}</pre>;
    case 'image':
      return <img class="image" alt="image result" src={`data:${mime};base64,${data}`} />;
    case 'audio':
      return (
        <audio controls src={`data:${mime};base64,${data}`}>
          <a href={`data:${mime};base64,${data}`}>audio ({mime})</a>
        </audio>
      );
    case 'resource_link':
      return <ResourceLink link={block} />;
    case 'resource':
      return isRecord(block['resource']) ? (
        <div class="embedded">
          <p class="meta">Embedded resource</p>
          <ResourceContents contents={[block['resource']]} />
        </div>
      ) : (
        <JsonView value={block} />
      );
    default:
      return <JsonView value={block} />;
  }
}

/** A `resource_link`: its name and description, and a button that reads it. */
function ResourceLink(props: { link: Record<string, unknown> }) {
  const uri = str(props.link['uri']) ?? '';
  const [contents, setContents] = useState<unknown[] | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    setError('');
    try {
      const result = await mcp<{ contents?: unknown[] }>('readResource', { uri });
      setContents(result.contents ?? []);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  const description = str(props.link['description']);
  return (
    <div class="resource-link">
      <p>
        <span class="meta">Resource link</span> <strong>{str(props.link['name']) ?? uri}</strong>
        {str(props.link['mimeType']) === undefined ? null : (
          <span class="meta"> ({str(props.link['mimeType'])})</span>
        )}
        {description === undefined ? null : <span> — {description}</span>}
      </p>
      <button type="button" disabled={busy} onClick={() => void open()}>
        Open {uri}
      </button>
      {error === '' ? null : (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {contents === undefined ? null : <ResourceContents contents={contents} />}
    </div>
  );
}

/** The `contents` of resources/read (or one embedded resource): text, images, or a download. */
export function ResourceContents(props: { contents: unknown[] }) {
  return (
    <div class="contents">
      {props.contents.map((item, i) => {
        if (!isRecord(item)) return <JsonView key={i} value={item} />;
        const uri = str(item['uri']) ?? '';
        const mime = str(item['mimeType']) ?? 'application/octet-stream';
        const text = str(item['text']);
        const blob = str(item['blob']);
        return (
          <div class="content-item" key={i}>
            <p class="meta">
              {uri} · {mime}
            </p>
            {text !== undefined ? (
              <pre class="text">{text}</pre>
            ) : blob !== undefined ? (
              <BlobView uri={uri} mime={mime} blob={blob} />
            ) : (
              <JsonView value={item} />
            )}
          </div>
        );
      })}
    </div>
  );
}

function BlobView(props: { uri: string; mime: string; blob: string }) {
  const { mime, blob } = props;
  const href = `data:${mime};base64,${blob}`;
  const bytes = Math.floor((blob.replace(/=+$/, '').length * 3) / 4);
  const name = props.uri.split('/').pop() ?? 'resource';
  return (
    <div>
      {mime.startsWith('image/') ? (
        <img class="image" alt={`image ${props.uri}`} src={href} />
      ) : null}
      {mime.startsWith('audio/') ? <audio controls src={href} /> : null}
      <p>
        {bytes} bytes of binary data ·{' '}
        <a href={href} download={name === '' ? 'resource' : name}>
          Save
        </a>
      </p>
    </div>
  );
}
