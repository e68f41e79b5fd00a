// Descriptions for models: an API's prose (Markdown, notes for people, links) trimmed to what a
// model needs to choose and call a tool, within a budget of characters.

/** Markdown to plain prose: links to their text, admonitions and markup dropped, spaces collapsed. */
export function plainText(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]{1,200}>/g, ' ')
    .replace(/^\s*>\s*\[![A-Z]+\]\s*$/gm, ' ')
    .replace(/^\s*[>#]+\s?/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * `text` as plain prose of at most `max` characters: whole sentences when they fit, else cut at
 * a word and ended with "…".
 */
export function trimText(text: string, max: number): string {
  const plain = plainText(text);
  if (plain.length <= max) return plain;
  const head = plain.slice(0, max);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('.\u00a0'));
  if (sentence >= max / 3) return head.slice(0, sentence + 1);
  const space = head.lastIndexOf(' ', max - 1);
  return `${(space > max / 2 ? head.slice(0, space) : head.slice(0, max - 1)).trimEnd()}…`;
}

/**
 * An operation's description: its summary, then as much of its description as fits `max`. One
 * too short to choose a tool by (under four words or 20 characters) says its method and path too.
 */
export function describeOperation(
  summary: string | undefined,
  description: string | undefined,
  { max, method, path }: { max: number; method: string; path: string },
): string {
  const text = summaryAndBody(summary, description, max);
  const words = text.split(/\s+/).filter((word) => word !== '').length;
  if (words >= 4 && text.length >= 20) return text;
  const where = `${method.toUpperCase()} ${path}`;
  const said = text === '' ? `Calls ${where}.` : `${text.replace(/\.$/, '')} (${where}).`;
  return said.length <= max ? said : text;
}

function summaryAndBody(
  summary: string | undefined,
  description: string | undefined,
  max: number,
): string {
  const head = summary === undefined ? '' : plainText(summary);
  const body = description === undefined ? '' : plainText(description);
  if (head === '') return trimText(body, max);
  if (body === '' || body.toLowerCase().startsWith(head.toLowerCase())) {
    return trimText(body === '' ? head : body, max);
  }
  const first = /[.!?]$/.test(head) ? head : `${head}.`;
  if (first.length + 1 >= max) return trimText(first, max);
  const rest = trimText(body, max - first.length - 1);
  return rest === '' ? first : `${first} ${rest}`;
}
