// mcpkit/server: the MCP server framework. It arrives with issue #3.
export {};
