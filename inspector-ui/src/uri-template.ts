// URI templates (RFC 6570, levels 1 to 3, the part MCP resource templates use): the variables a
// template names and its expansion with the values the user typed.

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

/** The variable names of `template`, in order, each once. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    for (const spec of (match[2] ?? '').split(',')) {
      const name = spec.replace(/\*$|:\d+$/, '').trim();
      if (name !== '' && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

const PLAIN = { first: '', sep: ',', named: false, reserved: false };
const OPERATORS: Record<string, { first: string; sep: string; named: boolean; reserved: boolean }> =
  {
    '': PLAIN,
    '+': { first: '', sep: ',', named: false, reserved: true },
    '#': { first: '#', sep: ',', named: false, reserved: true },
    '.': { first: '.', sep: '.', named: false, reserved: false },
    '/': { first: '/', sep: '/', named: false, reserved: false },
    ';': { first: ';', sep: ';', named: true, reserved: false },
    '?': { first: '?', sep: '&', named: true, reserved: false },
    '&': { first: '&', sep: '&', named: true, reserved: false },
  };

/** `template` with each variable replaced by its value (undefined or '' values are left out). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_all, op: string, specs: string) => {
    const rule = OPERATORS[op] ?? PLAIN;
    const parts: string[] = [];
    for (const spec of specs.split(',')) {
      const name = spec.replace(/\*$|:\d+$/, '').trim();
      const value = values[name];
      if (value === undefined || value === '') continue;
      const encoded = rule.reserved ? encodeURI(value) : encodeURIComponent(value);
      parts.push(rule.named ? `${name}=${encoded}` : encoded);
    }
    return parts.length === 0 ? '' : rule.first + parts.join(rule.sep);
  });
}
