// mcpkit/client: the MCP client library. It arrives with issue #5.
export {};
