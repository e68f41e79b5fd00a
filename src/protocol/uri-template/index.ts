// RFC 6570 URI templates for MCP resource templates: the public face of this folder.
export { UriTemplate, isUriTemplate } from './uri-template.js';
export type { UriTemplateVariables, UriTemplateValue } from './expand.js';
export type { UriTemplateMatch } from './match.js';
