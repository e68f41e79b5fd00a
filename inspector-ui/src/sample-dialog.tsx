// A sampling request from the server: its messages and settings, a Reply the user writes in
// place of a model, Send reply or Reject.
import { useState } from 'preact/hooks';
import { ContentBlocks, JsonView } from './content';
import { Modal } from './modal';
import { isRecord } from './schema';
import { safeId } from './schema-form';
import type { JsonObject, Question } from './types';

export function SampleDialog(props: {
  question: Question;
  onReply: (result: JsonObject) => void;
  onReject: () => void;
  busy: boolean;
}) {
  const { question, busy } = props;
  const params = question.params;
  const messages = Array.isArray(params['messages']) ? (params['messages'] as unknown[]) : [];
  const [reply, setReply] = useState('This is a test reply from mcpkit inspect.');
  const [model, setModel] = useState('mcpkit-inspector');
  const id = `sample-${safeId(question.requestId)}`;
  const systemPrompt = params['systemPrompt'];
  const settings = Object.fromEntries(
    Object.entries(params).filter(([k]) => k !== 'messages' && k !== 'systemPrompt'),
  );
  return (
    <Modal id={id} title="Sampling request">
      <p class="hint">
        The server asks the client&apos;s model for a completion. You answer in its place.
      </p>
      {typeof systemPrompt === 'string' ? (
        <div class="sample-system">
          <h3>System prompt</h3>
          <pre class="text">{systemPrompt}</pre>
        </div>
      ) : null}
      <h3>Messages</h3>
      <ol class="messages">
        {messages.map((m, i) => (
          <li key={i} class="message">
            <span class="role">{isRecord(m) ? String(m['role']) : '?'}</span>
            <ContentBlocks content={isRecord(m) ? m['content'] : m} />
          </li>
        ))}
      </ol>
      {Object.keys(settings).length === 0 ? null : (
        <details>
          <summary>Settings</summary>
          <JsonView value={settings} />
        </details>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          props.onReply({
            role: 'assistant',
            content: { type: 'text', text: reply },
            model,
            stopReason: 'endTurn',
          });
        }}
      >
        <div class="field">
          <label for={`${id}-reply`}>Reply</label>
          <textarea
            id={`${id}-reply`}
            rows={4}
            value={reply}
            onInput={(e) => {
              setReply(e.currentTarget.value);
            }}
          />
        </div>
        <div class="field">
          <label for={`${id}-model`}>Model</label>
          <input
            id={`${id}-model`}
            value={model}
            onInput={(e) => {
              setModel(e.currentTarget.value);
            }}
          />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Send reply
          </button>
          <button type="button" class="danger" disabled={busy} onClick={props.onReject}>
            Reject
          </button>
        </div>
      </form>
    </Modal>
  );
}
