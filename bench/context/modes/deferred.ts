// Native deferred loading (Anthropic's tool search): every tool sent with defer_loading behind
// the BM25 tool-search tool. The fake endpoint plays the API: each step's answer holds the
// server-side search (server_tool_use, then tool_search_tool_result referencing the step's tool)
// and the call. It assumes the API's search finds the tool at once; the tool list must be the
// same bytes in every request (else a problem of the run).
import { play, toolsText } from '../play.js';
import type { ContextMode } from '../types.js';

export const mode: ContextMode = {
  name: 'deferred',
  run: (task, context) =>
    play(task, context, {
      options: {},
      script: (name, problems) => {
        let first: string | undefined;
        const same = (body: unknown): void => {
          first ??= toolsText(body);
          if (toolsText(body) !== first) problems.push('the tool list changed between requests');
          if (!first.includes('"defer_loading":true')) problems.push('no tool was deferred');
        };
        return [
          ...task.steps.map((step, index) => (body: unknown) => {
            same(body);
            const id = `srvtoolu_${String(index + 1)}`;
            return {
              blocks: [
                {
                  type: 'server_tool_use',
                  id,
                  name: 'tool_search_tool_bm25',
                  input: { query: step.query },
                },
                {
                  type: 'tool_search_tool_result',
                  tool_use_id: id,
                  content: {
                    type: 'tool_search_tool_search_result',
                    tool_references: [{ type: 'tool_reference', tool_name: name(step) }],
                  },
                },
              ],
              toolCalls: [{ name: name(step), arguments: step.arguments }],
            };
          }),
          (body: unknown) => {
            same(body);
            return { text: task.answer };
          },
        ];
      },
    }),
};
