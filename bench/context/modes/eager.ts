// Eager: every tool definition in every request (deferred loading off).
import { play } from '../play.js';
import type { ContextMode } from '../types.js';

export const mode: ContextMode = {
  name: 'eager',
  run: (task, context) =>
    play(task, context, {
      options: { deferLoading: false },
      script: (name) => [
        ...task.steps.map((step) => () => ({
          toolCalls: [{ name: name(step), arguments: step.arguments }],
        })),
        { text: task.answer },
      ],
    }),
};
