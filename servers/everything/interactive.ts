// everything's interactive tools: the ones that talk back to the client while they run —
// progress and cancellation (trigger-long-running-operation), elicitation with progress
// (simulate-research-query), sampling (sample-llm) and roots (get-roots-list). The same handler
// serves both eras: in 2026-07-28 a call to ctx.elicit/sample/roots ends the round with
// input_required and the handler runs again with the answer, so nothing before it has effects.
import { z } from 'zod';
import type { HandlerContext } from '../../src/server/index.js';
import type { Spec20260728 } from '../../src/protocol/index.js';
import type { ResearchDepth } from './logic.js';
import {
  RESEARCH_DEPTHS,
  researchStages,
  researchSummary,
  runLongOperation,
  sleep,
} from './logic.js';
import type { Register, ToolSettings } from './register.js';
import { NO_ARGS, READ_ONLY } from './register.js';

/** Registers the interactive tools. */
export function registerInteractive(register: Register, settings: ToolSettings): void {
  register(
    {
      name: 'trigger-long-running-operation',
      description:
        'Runs a simulated operation that reports progress after each step and stops when cancelled. Use it to test progress and cancellation.',
      inputSchema: z.strictObject({
        duration: z.number().min(0).max(300).default(10).describe('Total seconds.'),
        steps: z.int().min(1).max(100).default(5).describe('Number of steps.'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ duration, steps }, ctx) =>
      runLongOperation({ durationMs: duration * 1000, steps }, ctx.signal, (done, total, message) =>
        ctx.progress(done, total, message),
      ),
  );
  register(
    {
      name: 'simulate-research-query',
      description:
        'Researches a topic in several steps: first asks the user how deep to go (elicitation), then reports progress and returns a summary.',
      inputSchema: {
        type: 'object',
        properties: {
          topic: { type: 'string', minLength: 1, maxLength: 200, description: 'What to research.' },
          ambiguous: {
            type: 'boolean',
            description: 'Make the topic ambiguous: the task asks which meaning is wanted.',
          },
        },
        required: ['topic'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      // A client that takes tasks (2026-07-28) gets one once the question is answered.
      task: { support: 'optional', start: 'handler' },
    },
    (args, ctx) =>
      research(
        { topic: args['topic'] as string, ambiguous: args['ambiguous'] === true },
        ctx,
        settings.researchStepMs,
      ),
  );
  register(
    {
      name: 'sample-llm',
      description:
        "Asks the client's LLM to answer a prompt (sampling) and returns its answer. Use it to test sampling.",
      inputSchema: z.strictObject({
        prompt: z.string().min(1).max(10_000).describe('What to ask the LLM.'),
        maxTokens: z.int().min(1).max(4096).default(100).describe('Most tokens to generate.'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ prompt, maxTokens }, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        systemPrompt: 'You are a helpful assistant answering a test request.',
        maxTokens,
      });
      return `LLM sampling result: ${samplingText(result)}`;
    },
  );
  register(
    {
      name: 'get-roots-list',
      description: "Lists the client's roots (the folders it shares). Use it to test roots.",
      inputSchema: NO_ARGS,
      annotations: READ_ONLY,
    },
    async (_args, ctx) => {
      const roots = await ctx.roots();
      if (roots.length === 0) return 'The client shares no roots.';
      return roots.map((r) => `- ${r.uri}${r.name === undefined ? '' : ` (${r.name})`}`).join('\n');
    },
  );
}

/** Asks which meaning of an ambiguous topic is wanted; the first one when the user declines. */
async function clarify(topic: string, ctx: HandlerContext): Promise<string> {
  const answer = await ctx.elicit({
    mode: 'form',
    message: `"${topic}" has several meanings: which one?`,
    requestedSchema: {
      type: 'object',
      properties: {
        interpretation: { type: 'string', title: 'Meaning', enum: [...MEANINGS] },
      },
      required: ['interpretation'],
    },
  });
  const chosen = answer.action === 'accept' ? answer.content?.['interpretation'] : undefined;
  return typeof chosen === 'string' ? chosen : MEANINGS[0];
}

function samplingText(result: Spec20260728.CreateMessageResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
}

/** The form simulate-research-query shows the user: flat, an enum and a string. */
function clarifySchema(): Spec20260728.ElicitRequestFormParams['requestedSchema'] {
  return {
    type: 'object',
    properties: {
      depth: {
        type: 'string',
        title: 'Depth',
        description: 'How deep the research should go.',
        enum: [...RESEARCH_DEPTHS],
      },
      focus: {
        type: 'string',
        title: 'Focus',
        description: 'An aspect to focus on (optional).',
        maxLength: 200,
      },
    },
    required: ['depth'],
  };
}

/** The meanings an ambiguous topic may have. */
const MEANINGS = ['the animal', 'the technology', 'the place'] as const;

async function research(
  query: { topic: string; ambiguous: boolean },
  ctx: HandlerContext,
  stepMs: number,
): Promise<string> {
  const { topic } = query;
  let depth: ResearchDepth = 'overview';
  let focus: string | undefined;
  let note: string | undefined;
  // Elicitation is optional here: without the capability the run goes on with the defaults.
  if (ctx.client.capabilities.elicitation === undefined) {
    note = 'The client cannot ask the user, so the default depth (overview) was used.';
  } else {
    const answer = await ctx.elicit({
      mode: 'form',
      message: `Before researching "${topic}": how deep should I go?`,
      requestedSchema: clarifySchema(),
    });
    if (answer.action !== 'accept') {
      const verb = answer.action === 'decline' ? 'declined' : 'cancelled';
      return `Research on "${topic}" was not started: the user ${verb} the clarification.`;
    }
    const chosen = answer.content?.['depth'];
    if (typeof chosen === 'string' && (RESEARCH_DEPTHS as readonly string[]).includes(chosen)) {
      depth = chosen as ResearchDepth;
    }
    const given = answer.content?.['focus'];
    if (typeof given === 'string' && given !== '') focus = given;
  }
  // The question is answered: the rest runs as a task where the client takes one.
  await ctx.startTask();
  const stages = researchStages(depth);
  for (const [i, stage] of stages.entries()) {
    await sleep(stepMs, ctx.signal);
    await ctx.progress(i + 1, stages.length, stage);
    // An ambiguous topic needs a clarification midway: the task waits for it (input_required).
    if (i === 0 && query.ambiguous && ctx.client.capabilities.elicitation !== undefined) {
      const meaning = await clarify(topic, ctx);
      note = `Interpretation: ${meaning}.`;
    }
  }
  return researchSummary(topic, { depth, focus, ...(note === undefined ? {} : { note }) });
}
