// Text for a terminal. What mcpkit prints holds server text (results, names, descriptions, logs,
// errors) that a terminal would obey: OSC sets the window title or writes the clipboard (OSC 52),
// CSI clears the screen or moves the cursor, a lone CR overprints a line. On a terminal every
// control character is shown instead (`\x1b`), except newline, tab, CR before LF, and mcpkit's own
// colours; mcpkit's own cursor control goes through `writeControl`.
/** A stream a command writes text to. */
export interface TextSink {
  write(text: string): unknown;
  /**
   * Writes one of mcpkit's own terminal control sequences as it is. A terminal's sink has it
   * (its `write` shows control characters instead, below); elsewhere `write` is used.
   */
  writeControl?(sequence: string): unknown;
}

/** The SGR parameters of mcpkit's Style (output.ts): bold, dim, the four colours, their resets. */
const OWN_SGR = '(?:1|2|22|31|32|33|36|39)';

/** C0 but newline and tab, DEL, and C1. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const WITH_COLORS = new RegExp(`\\u001b\\[${OWN_SGR}m|\\r\\n|${CONTROL.source}`, 'g');
const WITHOUT_COLORS = new RegExp(`\\r\\n|${CONTROL.source}`, 'g');

/**
 * `text` with every C0 and C1 control character (and DEL) shown as `\xHH`, but newline, tab and
 * CR before LF; with `colors`, mcpkit's own SGR colour codes are kept (any other escape sequence,
 * SGR 8 that hides text included, is shown). Text without control characters is returned as is.
 */
export function escapeControls(text: string, colors: boolean): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(colors ? WITH_COLORS : WITHOUT_COLORS, (match) =>
    match.length > 1 ? match : `\\x${match.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/**
 * A sink for a terminal: what is written is escaped (see escapeControls); `writeControl` writes
 * mcpkit's own control sequences (the progress bar's line clearing) as they are.
 */
export function terminalSink(stream: TextSink, colors: boolean): TextSink {
  return {
    write: (text: string) => stream.write(escapeControls(text, colors)),
    writeControl: (sequence: string) => stream.write(sequence),
  };
}
