// The part of the conformance fixture that asks the client for something: sampling and
// elicitation tools (legacy sessions), multi round-trip tools and a prompt (2026-07-28
// input-required-result-*), and the probes of the 2026-07-28 server-stateless scenario.

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const text = (value) => ({ type: 'text', text: value });
export const object = (properties, required) => ({
  type: 'object',
  properties,
  ...(required === undefined ? {} : { required }),
});

/** Registers every tool and prompt that asks the client for input. */
/**
 * `shareToggles` (several processes as one, server.mjs --redis): given how to set a toggled
 * item here, returns how to set it on every process, so that they all list the same.
 */
export function registerAskingFeatures(server, { shareToggles } = {}) {
  registerClientRequestTools(server);
  registerInputRequiredTools(server);
  registerDiagnosticTools(server, shareToggles);
}

/** Tools that ask the client for something: sampling and elicitation (both eras). */
function registerClientRequestTools(server) {
  server.tool(
    {
      name: 'test_sampling',
      description: 'Asks the client LLM to answer a prompt.',
      inputSchema: object({ prompt: { type: 'string' } }, ['prompt']),
    },
    async ({ prompt }, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: 'user', content: text(prompt) }],
        maxTokens: 100,
      });
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      return `LLM response: ${content?.type === 'text' ? content.text : JSON.stringify(content)}`;
    },
  );
  server.tool(
    {
      name: 'test_elicitation',
      description: 'Asks the user for a username and an email.',
      inputSchema: object({ message: { type: 'string' } }, ['message']),
    },
    async ({ message }, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message,
        requestedSchema: object(
          {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          ['username', 'email'],
        ),
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  );
  server.tool(
    {
      name: 'test_elicitation_sep1034_defaults',
      description: 'Elicits a form whose fields all have defaults (SEP-1034).',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Please review your profile (defaults filled in)',
        requestedSchema: object({
          name: { type: 'string', default: 'John Doe' },
          age: { type: 'integer', default: 30 },
          score: { type: 'number', default: 95.5 },
          status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', default: true },
        }),
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  );
  const options = ['option1', 'option2', 'option3'];
  const titled = options.map((value, i) => ({ const: value, title: `Option ${String(i + 1)}` }));
  server.tool(
    {
      name: 'test_elicitation_sep1330_enums',
      description: 'Elicits every enum shape of SEP-1330.',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Please pick options',
        requestedSchema: object({
          untitledSingle: { type: 'string', enum: options },
          titledSingle: { type: 'string', oneOf: titled },
          legacyEnum: {
            type: 'string',
            enum: options,
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: { type: 'array', items: { type: 'string', enum: options } },
          titledMulti: { type: 'array', items: { anyOf: titled } },
        }),
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  );
}

const nameQuestion = (message) => ({
  mode: 'form',
  message,
  requestedSchema: object({ name: { type: 'string' } }, ['name']),
});

/** Tools and a prompt for 2026-07-28 multi round-trip requests (input-required-result-*). */
function registerInputRequiredTools(server) {
  server.tool(
    { name: 'test_input_required_result_elicitation', description: 'Asks for a name (MRTR).' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(nameQuestion('What is your name?'), { key: 'user_name' });
      return `Hello, ${String(answer.content?.name ?? 'stranger')}!`;
    },
  );
  server.tool(
    { name: 'test_input_required_result_sampling', description: 'Asks the LLM (MRTR).' },
    async (_args, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: 'user', content: text('What is the capital of France?') }],
        maxTokens: 100,
      });
      return `The LLM said: ${JSON.stringify(result.content)}`;
    },
  );
  server.tool(
    { name: 'test_input_required_result_list_roots', description: 'Asks for roots (MRTR).' },
    async (_args, ctx) => {
      const roots = await ctx.roots();
      return `Roots: ${roots.map((root) => root.uri).join(', ')}`;
    },
  );
  server.tool(
    { name: 'test_input_required_result_request_state', description: 'Round-trips state.' },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Please confirm',
        requestedSchema: object({ ok: { type: 'boolean' } }, ['ok']),
      });
      return `state-ok: confirmed=${String(answer.content?.ok)}`;
    },
  );
  server.tool(
    { name: 'test_input_required_result_multiple_inputs', description: 'Asks three at once.' },
    async (_args, ctx) => {
      const [user, greeting, roots] = await Promise.all([
        ctx.elicit(nameQuestion('What is your name?')),
        ctx.sample({
          messages: [{ role: 'user', content: text('Generate a greeting') }],
          maxTokens: 50,
        }),
        ctx.roots(),
      ]);
      return `name=${String(user.content?.name)} greeting=${JSON.stringify(greeting.content)} roots=${String(roots.length)}`;
    },
  );
  server.tool(
    { name: 'test_input_required_result_multi_round', description: 'Asks in two rounds.' },
    async (_args, ctx) => {
      const step1 = await ctx.elicit(nameQuestion('Step 1: What is your name?'));
      const step2 = await ctx.elicit({
        mode: 'form',
        message: 'Step 2: What is your favorite color?',
        requestedSchema: object({ color: { type: 'string' } }, ['color']),
      });
      return `${String(step1.content?.name)} likes ${String(step2.content?.color)}`;
    },
  );
  server.tool(
    { name: 'test_input_required_result_tampered_state', description: 'Seals its state.' },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Please confirm',
        requestedSchema: object({ ok: { type: 'boolean' } }, ['ok']),
      });
      return `confirmed=${String(answer.content?.ok)}`;
    },
  );
  server.tool(
    {
      name: 'test_input_required_result_capabilities',
      description: 'Asks only for what the client declared.',
    },
    async (_args, ctx) => {
      const { capabilities } = ctx.client;
      const asks = [];
      if (capabilities.elicitation !== undefined) asks.push(ctx.elicit(nameQuestion('Name?')));
      if (capabilities.sampling !== undefined) {
        asks.push(
          ctx.sample({ messages: [{ role: 'user', content: text('Say hi') }], maxTokens: 20 }),
        );
      }
      const answers = await Promise.all(asks);
      return `answers=${String(answers.length)}`;
    },
  );
  server.prompt(
    {
      name: 'test_input_required_result_prompt',
      description: 'A prompt that asks the user for context first (MRTR).',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'What context should the prompt use?',
        requestedSchema: object({ context: { type: 'string' } }, ['context']),
      });
      return `Use this context: ${String(answer.content?.context)}`;
    },
  );
}

/** Probes of the 2026-07-28 server-stateless scenario. */
function registerDiagnosticTools(server, shareToggles) {
  server.tool(
    { name: 'test_missing_capability', description: 'Needs sampling; fails without it.' },
    async (_args, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: 'user', content: text('ping') }],
        maxTokens: 10,
      });
      return JSON.stringify(result.content);
    },
  );
  server.tool(
    { name: 'test_streaming_elicitation', description: 'Elicits on its response stream.' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(nameQuestion('What is your name?'));
      return `Hello, ${String(answer.content?.name)}`;
    },
  );
  const toggledTool = server.tool(
    { name: 'test_toggled_tool', description: 'Appears and disappears (list_changed probe).' },
    () => 'toggled',
  );
  const toggledPrompt = server.prompt(
    { name: 'test_toggled_prompt', description: 'Appears and disappears (list_changed probe).' },
    () => 'toggled',
  );
  const handles = { tool: toggledTool, prompt: toggledPrompt };
  const setHere = (which, enabled) => {
    const handle = handles[which];
    if (handle !== undefined && handle.enabled !== enabled) {
      if (enabled) handle.enable();
      else handle.disable();
    }
  };
  const set = shareToggles?.(setHere) ?? setHere;
  const toggle = (handle) => set(handle === toggledTool ? 'tool' : 'prompt', !handle.enabled);
  server.tool({ name: 'test_trigger_tool_change', description: 'Changes the tool list.' }, () => {
    toggle(toggledTool);
    return 'tool list changed';
  });
  server.tool(
    { name: 'test_trigger_prompt_change', description: 'Changes the prompt list.' },
    () => {
      toggle(toggledPrompt);
      return 'prompt list changed';
    },
  );
}
