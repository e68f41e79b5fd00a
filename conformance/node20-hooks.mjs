// Module hooks for node20.mjs: the conformance packages get an `fs` that also exports a
// `globSync` that throws; everything else is the real `node:fs`.
const FS_WITH_GLOB = `data:text/javascript,${encodeURIComponent(
  [
    "export * from 'node:fs';",
    "export { default } from 'node:fs';",
    "export function globSync() { throw new Error('fs.globSync needs Node 22'); }",
  ].join('\n'),
)}`;

const CONFORMANCE = /\/node_modules\/(@modelcontextprotocol\/conformance|conformance-next)\//;

/** Resolves `fs` imported by the conformance bundles to the module above. */
export function resolve(specifier, context, next) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    CONFORMANCE.test(context.parentURL ?? '')
  ) {
    return { url: FS_WITH_GLOB, shortCircuit: true };
  }
  return next(specifier, context);
}
