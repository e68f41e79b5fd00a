// An elicitation request from the server: a form generated from its requestedSchema (the same
// field rules as tool forms), or in URL mode the URL to open; Accept, Decline or Cancel.
import { useState } from 'preact/hooks';
import { Modal } from './modal';
import { initialValue, isRecord } from './schema';
import { SchemaFields, safeId } from './schema-form';
import type { JsonObject, JsonSchema, Question } from './types';

/** What the user answered: the ElicitResult. */
export type ElicitAnswer =
  { action: 'accept'; content?: JsonObject } | { action: 'decline' | 'cancel' };

export function ElicitDialog(props: {
  question: Question;
  onAnswer: (answer: ElicitAnswer) => void;
  busy: boolean;
}) {
  const { question, onAnswer, busy } = props;
  const params = question.params;
  const message = typeof params['message'] === 'string' ? params['message'] : '';
  const schema = (
    isRecord(params['requestedSchema']) ? params['requestedSchema'] : {}
  ) as JsonSchema;
  const [content, setContent] = useState(() => initialValue(schema));
  const id = `elicit-${safeId(question.requestId)}`;
  const url =
    params['mode'] === 'url' && typeof params['url'] === 'string' ? params['url'] : undefined;
  const buttons = (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          onAnswer({ action: 'decline' });
        }}
      >
        Decline
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          onAnswer({ action: 'cancel' });
        }}
      >
        Cancel
      </button>
    </>
  );
  const escape = () => {
    onAnswer({ action: 'cancel' });
  };
  if (url !== undefined) {
    const safe = /^https?:\/\//i.test(url);
    return (
      <Modal id={id} title={`Server asks: ${message}`} onEscape={escape}>
        <p>The server asks you to open this address (for example to sign in or to pay):</p>
        <p class="url">
          {safe ? (
            <a href={url} target="_blank" rel="noopener noreferrer">
              {url}
            </a>
          ) : (
            <code>{url}</code>
          )}
        </p>
        <p class="hint">Accept opens it in a new tab and tells the server you agreed.</p>
        <div class="actions">
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() => {
              if (safe) window.open(url, '_blank', 'noopener,noreferrer');
              onAnswer({ action: 'accept' });
            }}
          >
            Accept
          </button>
          {buttons}
        </div>
      </Modal>
    );
  }
  return (
    <Modal id={id} title={`Server asks: ${message}`} onEscape={escape}>
      <form
        class="elicit-form"
        onSubmit={(event) => {
          event.preventDefault();
          onAnswer({ action: 'accept', content });
        }}
      >
        <SchemaFields schema={schema} value={content} onChange={setContent} idPrefix={id} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Accept
          </button>
          {buttons}
        </div>
      </form>
    </Modal>
  );
}
