// The sandbox's bootstrap, evaluated in each fresh QuickJS context before the model's code:
// captures the host functions (and deletes them from the global object), JSON and Promise, and
// builds console, the namespaces and searchTools. It returns what the host keeps (never reachable
// by the code): the encoder it reads values out with, and the function it delivers answers with.
// A tool call: `__call(index, argsJson)` returns the call's id (a number), or the text of a
// refusal (a string); `deliver(answerJson)` later settles the call's promise with the answer,
// `{ id, ok, value | error }`.
/** The bootstrap script of a run's context; its value is `[encode, deliver]`. */
export const BOOTSTRAP = `(() => {
  const g = globalThis;
  const hostLog = g.__log, hostCall = g.__call, hostSearch = g.__search;
  delete g.__log; delete g.__call; delete g.__search;
  const stringify = JSON.stringify, parse = JSON.parse, S = String, P = Promise;
  const text = (v) => {
    if (typeof v === 'string') return v;
    try { const s = stringify(v); return s === undefined ? S(v) : s; } catch { return S(v); }
  };
  const line = (prefix) => (...args) => {
    let out = prefix;
    for (let i = 0; i < args.length; i++) out += (i === 0 ? '' : ' ') + text(args[i]);
    hostLog(out);
  };
  const freeze = Object.freeze, keys = Object.keys, bare = () => Object.create(null);
  g.console = freeze({ log: line(''), info: line(''), debug: line(''), warn: line('warn: '), error: line('error: ') });
  class ToolError extends Error {
    constructor(message, tool) { super(message); this.name = 'ToolError'; this.tool = tool; }
  }
  g.ToolError = ToolError;
  const waiting = bare();
  const fn = (index, tool) => async (input) => {
    let args;
    try { args = stringify(input === undefined ? {} : input); } catch (e) { throw new TypeError(tool + ': the input is not JSON: ' + S(e)); }
    const id = hostCall(index, args === undefined ? '{}' : args);
    if (typeof id === 'string') throw new ToolError(id, tool);
    const answer = await new P((resolve) => { waiting[id] = resolve; });
    if (answer.ok) return answer.value;
    throw new ToolError(answer.error, tool);
  };
  const functions = parse(g.__functions); delete g.__functions;
  const spaces = bare();
  for (let i = 0; i < functions.length; i++) {
    const [ns, name] = functions[i];
    (spaces[ns] ?? (spaces[ns] = {}))[name] = fn(i, ns + '.' + name);
  }
  for (const ns of keys(spaces)) g[ns] = freeze(spaces[ns]);
  if (hostSearch !== undefined) g.searchTools = (query, limit) => hostSearch(S(query), limit === undefined ? 5 : Number(limit));
  const describe = (e) => {
    try {
      if (e instanceof Error) return (e.name || 'Error') + ': ' + S(e.message) + (e.stack ? '\\n' + S(e.stack) : '');
      if (e === null) return 'thrown: null (QuickJS throws null when even an error cannot be made: out of memory)';
      return 'thrown: ' + text(e);
    } catch { return 'thrown: (a value that cannot be shown)'; }
  };
  const encode = (kind, v) => {
    if (kind === 'error') return describe(v);
    if (v === undefined) return undefined;
    try { return stringify(v); } catch (e) { return stringify('(the returned value is not JSON: ' + S(e) + ')'); }
  };
  const deliver = (text) => {
    const answer = parse(text), resolve = waiting[answer.id];
    if (resolve === undefined) return;
    delete waiting[answer.id];
    resolve(answer);
  };
  return [encode, deliver];
})()`;
