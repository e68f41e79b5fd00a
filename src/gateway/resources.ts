// Which upstream serves each resource URI and URI template of the gateway.
import type { Resource, ResourceTemplate } from '../client/index.js';
import type { Curation } from './config.js';
import { isServed } from './config.js';
import { linkedViews, servedUri } from './apps.js';
import type { Upstream } from './upstream.js';

/** What the gateway serves of the upstreams' resources, by the URI (or template) it serves. */
export interface WantedResources {
  /** `listed`: the upstream lists it (else it is a view only its tools link to). */
  readonly resources: Map<string, { owner: string; source: Resource; listed: boolean }>;
  readonly templates: Map<string, { owner: string; source: ResourceTemplate }>;
}

/**
 * The resources and templates to serve of `upstreams` (sorted by name): the first upstream by
 * name keeps a URI (or template) that two upstreams offer, and none takes `reserved` (the
 * gateway's own); `ui://` views are each under their upstream's own authority (src/gateway/
 * apps.ts), the views its served tools link to included, so they cannot be taken.
 */
export function wantedResources(
  upstreams: readonly Upstream[],
  curation: Readonly<Record<string, Curation>>,
  reserved: string,
): WantedResources {
  const resources: WantedResources['resources'] = new Map();
  const templates: WantedResources['templates'] = new Map();
  for (const upstream of upstreams) {
    const owner = upstream.name;
    const tools = upstream.tools.filter((tool) => isServed(curation[owner], tool.name));
    const listed = upstream.resources.map((source) => ({ source, listed: true }));
    const linked = linkedViews(tools, upstream.resources).map((source) => ({
      source,
      listed: false,
    }));
    for (const entry of [...listed, ...linked]) {
      const uri = servedUri(owner, entry.source.uri);
      if (uri !== reserved && !resources.has(uri)) resources.set(uri, { owner, ...entry });
    }
    for (const source of upstream.templates) {
      const uriTemplate = servedUri(owner, source.uriTemplate);
      if (!templates.has(uriTemplate)) templates.set(uriTemplate, { owner, source });
    }
  }
  return { resources, templates };
}
