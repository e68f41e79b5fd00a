// The Wire tab: every JSON-RPC message and HTTP exchange with its time, filterable, each
// expanding to its JSON; the transcript (the format `mcpkit replay` reads) copied or downloaded.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { errorText, transcript } from './api';
import { useReport } from './alerts';
import type { WireEntry } from './types';
import { MethodMemory, httpDetail, summarize } from './wire-summary';

/** More than this many matching entries: only the newest are drawn. */
const DRAWN = 1000;

interface Line {
  entry: WireEntry;
  text: string;
  detail: string;
  search: string;
}

export function WireTab(props: { wire: WireEntry[]; onClear: () => void }) {
  const report = useReport();
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [copied, setCopied] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  // Each entry is turned into a line once (entries only ever arrive in order, at the end).
  const made = useRef({ memory: new MethodMemory(), lines: new WeakMap<WireEntry, Line>() });
  const lines = useMemo(
    () =>
      props.wire.map((entry) => {
        const known = made.current.lines.get(entry);
        if (known !== undefined) return known;
        const line = lineOf(entry, made.current.memory);
        made.current.lines.set(entry, line);
        return line;
      }),
    [props.wire],
  );
  const needle = filter.trim().toLowerCase();
  const matching = needle === '' ? lines : lines.filter((l) => l.search.includes(needle));
  const drawn = matching.slice(-DRAWN);

  useEffect(() => {
    const box = scroller.current;
    if (box !== null && atBottom.current) box.scrollTop = box.scrollHeight;
  }, [drawn.length, props.wire.length]);

  const copy = async () => {
    try {
      const text = await transcript();
      await navigator.clipboard.writeText(text);
      setCopied(`Copied ${text.split('\n').filter((l) => l !== '').length} lines.`);
    } catch (error) {
      report(`Copy transcript failed: ${errorText(error)}`);
    }
  };
  const download = async () => {
    try {
      const text = await transcript();
      const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'mcpkit-transcript.txt';
      document.body.append(a);
      a.click();
      a.remove();
      window.setTimeout(() => {
        URL.revokeObjectURL(url);
      }, 10_000);
    } catch (error) {
      report(`Download transcript failed: ${errorText(error)}`);
    }
  };
  const first = props.wire[0]?.time;
  return (
    <div class="single wire">
      <header class="panel-head">
        <h2>Wire</h2>
        <div class="field inline grow">
          <label for="wire-filter">Filter</label>
          <input
            id="wire-filter"
            type="search"
            placeholder="method, id, header, any text"
            value={filter}
            onInput={(e) => {
              setFilter(e.currentTarget.value);
            }}
          />
        </div>
        <button type="button" onClick={() => void copy()}>
          Copy transcript
        </button>
        <a
          class="button"
          href="/api/transcript"
          download="mcpkit-transcript.txt"
          onClick={(event) => {
            event.preventDefault();
            void download();
          }}
        >
          Download transcript
        </a>
        <button type="button" onClick={props.onClear} disabled={props.wire.length === 0}>
          Clear
        </button>
      </header>
      <p class="hint" aria-live="polite">
        {copied === ''
          ? `${matching.length} of ${lines.length} entries. The transcript replays with: mcpkit replay <file> <url>`
          : copied}
      </p>
      <div
        class="wire-scroll"
        ref={scroller}
        onScroll={(e) => {
          const box = e.currentTarget;
          atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
        }}
      >
        <div role="log" aria-label="Wire log" class="wire-log">
          {matching.length > drawn.length ? (
            <p class="muted">({matching.length - drawn.length} older entries not drawn)</p>
          ) : null}
          {drawn.length === 0 ? <p class="muted">No messages yet.</p> : null}
          {drawn.map((line) => {
            const { entry } = line;
            const expanded = open.has(entry.seq);
            return (
              <div
                class={`wire-entry dir-${entry.dir === '>>' ? 'out' : 'in'} kind-${entry.kind}`}
                key={entry.seq}
              >
                <button
                  type="button"
                  class="wire-line"
                  aria-expanded={expanded}
                  onClick={() => {
                    const next = new Set(open);
                    if (expanded) next.delete(entry.seq);
                    else next.add(entry.seq);
                    setOpen(next);
                  }}
                >
                  <time>{clock(entry.time)}</time>
                  <span class="delta">
                    {first === undefined ? '' : `+${((entry.time - first) / 1000).toFixed(3)} s`}
                  </span>
                  <span class="summary">{line.text}</span>
                  {line.detail === '' ? null : <span class="detail">{line.detail}</span>}
                </button>
                {expanded ? (
                  <pre class="json">
                    {JSON.stringify(entry.kind === 'http' ? entry.http : entry.message, null, 2)}
                  </pre>
                ) : null}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function lineOf(entry: WireEntry, memory: MethodMemory): Line {
  const text = summarize(entry, memory.methodOf(entry));
  const detail = httpDetail(entry);
  const body = entry.kind === 'http' ? entry.http : entry.message;
  return { entry, text, detail, search: `${text} ${detail} ${JSON.stringify(body)}`.toLowerCase() };
}

function clock(time: number): string {
  const d = new Date(time);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
