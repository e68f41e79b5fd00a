// Human output: colours (only on a terminal, never with NO_COLOR), aligned tables, JSON, and
// short forms of long text. Machine output (--json) is plain JSON.stringify with two spaces.
import type { TextSink } from './io.js';

/** Style colours text when enabled and returns it unchanged otherwise. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
}

const plain = (text: string): string => text;
const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

/** Creates a Style; `enabled` false makes every method the identity. */
export function createStyle(enabled: boolean): Style {
  if (!enabled) {
    return {
      enabled,
      bold: plain,
      dim: plain,
      red: plain,
      yellow: plain,
      green: plain,
      cyan: plain,
    };
  }
  return {
    enabled,
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    yellow: sgr(33, 39),
    green: sgr(32, 39),
    cyan: sgr(36, 39),
  };
}

// eslint-disable-next-line no-control-regex -- matching ANSI escapes is the point
const ANSI = /\u001b\[[0-9;]*m/g;

/** The width of `text` on a terminal, ignoring ANSI colour codes. */
export function visibleWidth(text: string): number {
  return Array.from(text.replace(ANSI, '')).length;
}

/** Options of {@link table}. */
export interface TableOptions {
  /** Colours the header row. */
  style?: Style;
  /** Columns aligned right (numbers), by index. */
  alignRight?: readonly number[];
  /** Spaces between columns. Default 2. */
  gap?: number;
}

/**
 * Formats rows under a header as aligned columns, one line each (no trailing spaces). Cells
 * must not contain newlines.
 */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string {
  const lines = alignRows([header, ...rows], options);
  const style = options.style;
  if (style !== undefined && lines[0] !== undefined) lines[0] = style.bold(lines[0]);
  return `${lines.join('\n')}\n`;
}

/** Formats rows as aligned columns without a header, each line prefixed with `indent`. */
export function columns(
  rows: readonly (readonly string[])[],
  options: TableOptions & { indent?: string } = {},
): string {
  if (rows.length === 0) return '';
  const prefix = options.indent ?? '';
  return `${alignRows(rows, options)
    .map((line) => prefix + line)
    .join('\n')}\n`;
}

function alignRows(rows: readonly (readonly string[])[], options: TableOptions): string[] {
  const gap = ' '.repeat(options.gap ?? 2);
  const right = new Set(options.alignRight ?? []);
  const count = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: count }, (_, column) =>
    Math.max(...rows.map((row) => visibleWidth(row[column] ?? ''))),
  );
  return rows.map((row) =>
    row
      .map((cell, column) => {
        const pad = ' '.repeat((widths[column] ?? 0) - visibleWidth(cell));
        if (right.has(column)) return pad + cell;
        return column === row.length - 1 ? cell : cell + pad;
      })
      .join(gap)
      .trimEnd(),
  );
}

/** The first line of `text`, cut to `max` characters with an ellipsis. */
export function firstLine(text: string | undefined, max = 72): string {
  if (text === undefined) return '';
  const line = text.trim().split(/\r?\n/, 1)[0] ?? '';
  return truncate(line, max);
}

/** `text` cut to `max` characters (code points) with an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** Writes `value` as indented JSON and a newline. */
export function writeJson(sink: TextSink, value: unknown): void {
  sink.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A number with thousands separators (1,234), the same in every locale. */
export function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A percentage with one decimal (12.5%). */
export function formatShare(part: number, whole: number): string {
  return whole === 0 ? '0.0%' : `${((part / whole) * 100).toFixed(1)}%`;
}

/** A byte count for people (68 B, 1.2 KB, 3.4 MB). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${String(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
