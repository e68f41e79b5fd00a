// The sandbox's bootstrap, evaluated in each fresh QuickJS context before the model's code:
// captures the host functions (and deletes
// them from the global object), JSON, and builds console, the namespaces and searchTools. It
// returns the encoder the host uses to read values out (never reachable by the code).
/** The bootstrap script of a run's context; its value is the encoder. */
export const BOOTSTRAP = `(() => {
  const g = globalThis;
  const hostLog = g.__log, hostCall = g.__call, hostSearch = g.__search;
  delete g.__log; delete g.__call; delete g.__search;
  const stringify = JSON.stringify, parse = JSON.parse, S = String;
  const text = (v) => {
    if (typeof v === 'string') return v;
    try { const s = stringify(v); return s === undefined ? S(v) : s; } catch { return S(v); }
  };
  const line = (prefix) => (...args) => {
    let out = prefix;
    for (let i = 0; i < args.length; i++) out += (i === 0 ? '' : ' ') + text(args[i]);
    hostLog(out);
  };
  const freeze = Object.freeze, keys = Object.keys;
  g.console = freeze({ log: line(''), info: line(''), debug: line(''), warn: line('warn: '), error: line('error: ') });
  class ToolError extends Error {
    constructor(message, tool) { super(message); this.name = 'ToolError'; this.tool = tool; }
  }
  g.ToolError = ToolError;
  const spec = parse(g.__namespaces); delete g.__namespaces;
  for (const ns of keys(spec)) {
    const fns = {};
    for (const name of spec[ns]) {
      fns[name] = async (input) => {
        let args;
        try { args = stringify(input === undefined ? {} : input); } catch (e) { throw new TypeError(ns + '.' + name + ': the input is not JSON: ' + S(e)); }
        const answer = parse(await hostCall(ns, name, args === undefined ? '{}' : args));
        if (answer.ok) return answer.value;
        throw new ToolError(answer.error, ns + '.' + name);
      };
    }
    g[ns] = freeze(fns);
  }
  if (hostSearch !== undefined) g.searchTools = (query, limit) => hostSearch(S(query), limit === undefined ? 5 : Number(limit));
  const describe = (e) => {
    try {
      if (e instanceof Error) return (e.name || 'Error') + ': ' + S(e.message) + (e.stack ? '\\n' + S(e.stack) : '');
      if (e === null) return 'thrown: null (QuickJS throws null when even an error cannot be made: out of memory)';
      return 'thrown: ' + text(e);
    } catch { return 'thrown: (a value that cannot be shown)'; }
  };
  return (kind, v) => {
    if (kind === 'error') return describe(v);
    if (v === undefined) return undefined;
    try { return stringify(v); } catch (e) { return stringify('(the returned value is not JSON: ' + S(e) + ')'); }
  };
})()`;
