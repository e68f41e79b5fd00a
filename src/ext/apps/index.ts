// mcpkit/apps: MCP Apps (io.modelcontextprotocol/ui, SEP-1865), interactive views for tools. The
// server side (`apps()`, added with `server.extend`), the client side (`appsClient()`, added with
// `client.extend`), and the wire helpers a host needs. See docs/apps.md.
export { apps } from './server.js';
export type { AppView, AppsExtension, ViewDefinition, ViewSource } from './server.js';
export { appsClient } from './client.js';
export type { AppsApi, LoadedView } from './client.js';
export {
  APPS_EXTENSION,
  APPS_PROTOCOL_VERSION,
  APP_MIME_TYPE,
  declaresApps,
  modelVisible,
  toolUi,
} from './protocol.js';
export { DEFAULT_APP_CSP, allowAttribute, buildCsp, checkCsp, viewCsp } from './csp.js';
export type { CheckedCsp } from './csp.js';
export type {
  AppCsp,
  AppPermissions,
  AppsClientSettings,
  ToolUi,
  ViewMeta,
  Visibility,
} from './protocol.js';
