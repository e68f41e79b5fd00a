// mcpkit's search_tools: the model gets search_tools (and what it loaded); each step is a search
// with the step's keywords, then the call of the tool found. A search that does not load the
// step's tool is a problem of the run.
import { SEARCH_TOOLS } from '../../../src/host/index.js';
import { play } from '../play.js';
import type { ContextMode, EndpointStep } from '../types.js';

export const mode: ContextMode = {
  name: 'search_tools',
  run: (task, context) =>
    play(task, context, {
      options: { deferLoading: false, toolBudget: 0 },
      script: (name, problems) => [
        ...task.steps.flatMap((step): EndpointStep[] => [
          { toolCalls: [{ name: SEARCH_TOOLS, arguments: { query: step.query, limit: 3 } }] },
          (body) => {
            const tools = (body['tools'] ?? []) as { name: string }[];
            if (!tools.some((tool) => tool.name === name(step))) {
              problems.push(`search_tools "${step.query}" did not load ${name(step)}`);
            }
            return { toolCalls: [{ name: name(step), arguments: step.arguments }] };
          },
        ]),
        { text: task.answer },
      ],
    }),
};
