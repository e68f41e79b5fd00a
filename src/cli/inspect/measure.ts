// What the inspector adds to a server's tools: each one's token cost (the counter mcpkit budget
// uses), the mcpkit lint findings by tool, and a result's check against its outputSchema.
import type { CallToolResult, Tool } from '../../client/index.js';
import type { Tokenizer } from '../../catalogue/index.js';
import { serializeTool } from '../../catalogue/index.js';
import { compileJsonSchema, formatIssues } from '../../protocol/index.js';
import { lintServers } from '../lint-rules.js';
import type { LintView, State } from './views.js';
import { messageOf } from '../../internal/message-of.js';

/**
 * The budget of `tools` (each definition's tokens; the total adds the instructions, which
 * hosts put in the model's context too) and their lint findings by tool name (`*` for the
 * server as a whole).
 */
export function measureTools(
  tools: readonly Tool[],
  instructions: string | undefined,
  tokenizer: Tokenizer,
): { budget: NonNullable<State['budget']>; lint: Record<string, LintView[]> } {
  const perTool: Record<string, number> = {};
  let total = tokenizer.count(instructions ?? '');
  for (const tool of tools) {
    const count = tokenizer.count(serializeTool(tool));
    perTool[tool.name] = count;
    total += count;
  }
  const findings = lintServers([{ name: 'server', tools }], { countTokens: tokenizer.count });
  const lint: Record<string, LintView[]> = {};
  for (const finding of findings) {
    const message =
      finding.parameter === undefined
        ? finding.message
        : `${finding.parameter}: ${finding.message}`;
    (lint[finding.tool ?? '*'] ??= []).push({
      rule: finding.rule,
      severity: finding.severity === 'warn' ? 'warning' : finding.severity,
      message,
    });
  }
  return { budget: { total, tokenizer: tokenizer.encoding, tools: perTool }, lint };
}

/**
 * Checks a result of `tool` against its outputSchema; undefined when the tool has none or the
 * result is an error. The client lets results through unchecked so that the page shows both.
 */
export function outputCheck(
  tool: Tool | undefined,
  result: CallToolResult,
): { valid: boolean; errors?: string[] } | undefined {
  const schema = tool?.outputSchema;
  if (schema === undefined || result.isError === true) return undefined;
  if (result.structuredContent === undefined) {
    return {
      valid: false,
      errors: ['the tool has an outputSchema but returned no structuredContent'],
    };
  }
  try {
    const checked = compileJsonSchema(schema)(result.structuredContent);
    return checked.valid
      ? { valid: true }
      : { valid: false, errors: formatIssues(checked.issues).split('\n') };
  } catch (error) {
    const reason = messageOf(error);
    return { valid: false, errors: [`the outputSchema cannot be used: ${reason}`] };
  }
}
