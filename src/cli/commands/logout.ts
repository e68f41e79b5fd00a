// mcpkit logout: forget the tokens and registration stored for a server (see login.ts).
export { help, logout as run } from './login.js';
