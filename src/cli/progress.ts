// The stderr status of a running request: progress as a live bar on a terminal (one line,
// redrawn) or as plain lines otherwise, and log messages printed above the bar as they come.
import type { Io } from './io.js';
import type { Style } from './output.js';
import { truncate } from './output.js';

/** Status writes progress and log lines to stderr without the two garbling each other. */
export interface Status {
  /** Reports progress (`notifications/progress`). */
  readonly progress: (progress: number, total?: number, message?: string) => void;
  /** Prints a log message (`notifications/message`). */
  readonly log: (params: { level: string; logger?: string; data?: unknown }) => void;
  /** Prints a line above the bar. */
  readonly line: (text: string) => void;
  /** Removes the bar, if drawn. Idempotent. */
  readonly done: () => void;
}

const BAR_WIDTH = 24;

/** Creates a Status on `io.stderr`: a bar when `io.isTTY`, plain lines otherwise, nothing when quiet. */
export function createStatus(io: Io, options: { style: Style; quiet: boolean }): Status {
  const { style, quiet } = options;
  let drawn: string | undefined;
  const clear = () => {
    // mcpkit's own cursor control: as it is, where server text is escaped (terminal.ts).
    if (drawn !== undefined)
      (io.stderr.writeControl ?? io.stderr.write).call(io.stderr, '\r\u001b[2K');
  };
  const redraw = () => {
    if (drawn !== undefined) io.stderr.write(drawn);
  };
  const line = (text: string) => {
    clear();
    io.stderr.write(`${text}\n`);
    redraw();
  };
  return {
    progress(progress, total, message) {
      if (quiet) return;
      if (!io.isTTY) {
        io.stderr.write(`${progressText(progress, total, message)}\n`);
        return;
      }
      clear();
      drawn = barText({ progress, total, message }, style);
      io.stderr.write(drawn);
    },
    log(params) {
      if (quiet) return;
      const { level, logger, data } = params;
      const body = typeof data === 'string' ? data : JSON.stringify(data);
      const from = logger === undefined ? '' : ` [${logger}]`;
      const tag = ['error', 'critical', 'alert', 'emergency'].includes(level)
        ? style.red(`log ${level}`)
        : level === 'warning'
          ? style.yellow(`log ${level}`)
          : style.dim(`log ${level}`);
      line(`${tag}${from} ${body}`);
    },
    line,
    done() {
      clear();
      drawn = undefined;
    },
  };
}

/** `progress 3/10 (30%) copying` or `progress 3 copying` (no total). */
export function progressText(progress: number, total?: number, message?: string): string {
  const amount =
    total === undefined || total <= 0
      ? `progress ${String(progress)}`
      : `progress ${String(progress)}/${String(total)} (${String(Math.round(Math.min(progress / total, 1) * 100))}%)`;
  return message === undefined || message === '' ? amount : `${amount} ${message}`;
}

function barText(
  update: { progress: number; total: number | undefined; message: string | undefined },
  style: Style,
): string {
  const { progress, total, message } = update;
  const text = message === undefined ? '' : ` ${truncate(message, 60)}`;
  if (total === undefined || total <= 0) return `${style.cyan('…')} ${String(progress)}${text}`;
  const ratio = Math.max(0, Math.min(progress / total, 1));
  const filled = Math.round(ratio * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  return `${style.cyan(bar)} ${String(Math.round(ratio * 100)).padStart(3)}%${text}`;
}
