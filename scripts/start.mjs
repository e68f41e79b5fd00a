// `npm start`: serves the demo server once the reference servers land (issue #7).
console.log(
  'mcpkit: the demo server (http://127.0.0.1:3000/mcp) arrives with the reference servers; nothing to serve yet.',
);
