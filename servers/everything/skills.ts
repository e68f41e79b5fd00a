// The skill everything publishes (the skills extension): a short guide for an agent touring
// this server, its SKILL.md and one reference file, shipped in the program itself.

/** The skill's name (its frontmatter's too). */
export const TOUR_SKILL = 'mcpkit-tour';

/** Its files, by path. */
export const TOUR_FILES: Readonly<Record<string, string>> = {
  'SKILL.md': `---
name: mcpkit-tour
description: Tour the MCP features of the everything server, one tool at a time.
metadata:
  server: everything
---

# Touring the everything server

Call \`echo\` first to check the connection, then one tool per feature: \`get-sum\` (arguments),
\`trigger-long-running-operation\` (progress), \`simulate-research-query\` (elicitation, then a
task), \`sample-llm\` (sampling), \`get-roots-list\` (roots). See [the feature list](reference/FEATURES.md).
`,
  'reference/FEATURES.md': `# Features

| feature | tool or resource |
| --- | --- |
| tools with arguments | get-sum, echo |
| progress and cancellation | trigger-long-running-operation |
| elicitation and tasks | simulate-research-query |
| sampling | sample-llm |
| roots | get-roots-list |
| resources and templates | demo:// resources |
`,
};
