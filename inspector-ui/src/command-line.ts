// The Connect form's text fields as data: a command line split into words (quotes honoured) and
// `Name: value` header lines.

/**
 * Splits a command line on whitespace. Single quotes keep everything literally; double quotes
 * keep spaces and take backslash escapes (`\"`, `\\`, and JSON's `\n`, `\t`); a backslash outside
 * quotes escapes the next character. Throws on an unclosed quote.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length) {
        const next = line.charAt(++i);
        word += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      } else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line.charAt(++i);
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new Error(`the command has an unclosed ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}

/** Quotes the words again so that {@link splitCommandLine} gives them back. */
export function joinCommandLine(words: readonly string[]): string {
  return words.map((w) => (w === '' || /[\s"'\\]/.test(w) ? JSON.stringify(w) : w)).join(' ');
}

/** `Name: value` lines as headers; blank lines are skipped; a line without `:` throws. */
export function parseHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new Error(`Headers, line ${i + 1}: write "Name: value" (got "${line}")`);
    }
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}
