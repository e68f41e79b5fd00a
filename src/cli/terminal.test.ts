import { describe, expect, it } from 'vitest';
import { createStyle } from './output.js';
import { escapeControls, terminalSink } from './terminal.js';

const HOSTILE = 'Page text.\u001b]0;PWNED-TITLE\u0007\u001b[2J';

describe('text for a terminal', () => {
  it('shows the control characters of server text instead of obeying them', () => {
    expect(escapeControls(HOSTILE, false)).toBe('Page text.\\x1b]0;PWNED-TITLE\\x07\\x1b[2J');
    // OSC 52 (clipboard), C1 CSI and OSC, NUL, backspace, DEL, a lone CR.
    expect(escapeControls('\u001b]52;c;cm0gLXJm\u0007', false)).toBe('\\x1b]52;c;cm0gLXJm\\x07');
    expect(escapeControls('a\u009b2Jb\u009d0;x\u009c', false)).toBe('a\\x9b2Jb\\x9d0;x\\x9c');
    expect(escapeControls('\u0000\b\u007f', false)).toBe('\\x00\\x08\\x7f');
    expect(escapeControls('rm -rf /\rls', false)).toBe('rm -rf /\\x0dls');
  });

  it('keeps newlines, tabs, CRLF line ends and everything printable as they are', () => {
    const text = 'line 1\r\nline 2\n\tindented, ünïcödé, 漢字, emoji 🎉';
    expect(escapeControls(text, false)).toBe(text);
    expect(escapeControls(text, true)).toBe(text);
  });

  it("keeps mcpkit's own colour codes when colours are on, and no other escape sequence", () => {
    const style = createStyle(true);
    const ours = `${style.bold('b')} ${style.dim('d')} ${style.red('r')} ${style.yellow('y')} ${style.green('g')} ${style.cyan('c')}`;
    expect(escapeControls(ours, true)).toBe(ours);
    // Without colours, even those are shown; other SGR codes (8 conceals text) always are.
    expect(escapeControls('\u001b[31mx', false)).toBe('\\x1b[31mx');
    expect(escapeControls('\u001b[8mhidden\u001b[0m', true)).toBe('\\x1b[8mhidden\\x1b[0m');
    expect(escapeControls('\u001b[31;8mx', true)).toBe('\\x1b[31;8mx');
  });

  it('escapes what is written through the sink, but not the control sequences of mcpkit', () => {
    let written = '';
    const sink = terminalSink({ write: (text: string) => (written += text) }, false);
    sink.write(`${HOSTILE}\n`);
    sink.writeControl?.('\r\u001b[2K');
    expect(written).toBe('Page text.\\x1b]0;PWNED-TITLE\\x07\\x1b[2J\n\r\u001b[2K');
  });
});
