// Just enough RFC 3986 to resolve `$id` and `$ref` against a base URI inside one schema document.
// Nothing is fetched: a URI is only ever a key into the document's own resources.

interface UriParts {
  scheme: string | undefined;
  authority: string | undefined;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

// RFC 3986 appendix B, with the scheme restricted to its real grammar.
const URI_PARTS =
  /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function parse(uri: string): UriParts {
  const match = URI_PARTS.exec(uri);
  // The pattern matches every string: each part is optional and `path` takes anything else.
  return {
    scheme: match?.[1],
    authority: match?.[2],
    path: match?.[3] ?? '',
    query: match?.[4],
    fragment: match?.[5],
  };
}

function format(parts: UriParts): string {
  let text = '';
  if (parts.scheme !== undefined) text += `${parts.scheme}:`;
  if (parts.authority !== undefined) text += `//${parts.authority}`;
  text += parts.path;
  if (parts.query !== undefined) text += `?${parts.query}`;
  if (parts.fragment !== undefined) text += `#${parts.fragment}`;
  return text;
}

/** RFC 3986 section 5.2.4. */
function removeDotSegments(path: string): string {
  const output: string[] = [];
  const floor = path.startsWith('/') ? 1 : 0; // an absolute path keeps its leading empty segment
  const segments = path.split('/');
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && output.length > floor) output.pop();
      if (last) output.push('');
    } else {
      output.push(segment);
    }
  }
  const joined = output.join('/');
  return path.startsWith('/') && !joined.startsWith('/') ? `/${joined}` : joined;
}

/** RFC 3986 section 5.2.3. */
function mergePaths(base: UriParts, path: string): string {
  if (base.authority !== undefined && base.path === '') return `/${path}`;
  const slash = base.path.lastIndexOf('/');
  return slash < 0 ? path : base.path.slice(0, slash + 1) + path;
}

/**
 * Resolves `reference` against `base` (RFC 3986 section 5.2.2). The base may itself be relative or
 * empty (a document without `$id`); the result is then relative too, which is fine for lookups.
 */
export function resolveUri(base: string, reference: string): string {
  const ref = parse(reference);
  if (ref.scheme !== undefined) return format({ ...ref, path: removeDotSegments(ref.path) });
  const b = parse(base);
  const target: UriParts = { ...b, fragment: ref.fragment };
  if (ref.authority !== undefined) {
    return format({ ...ref, scheme: b.scheme, path: removeDotSegments(ref.path) });
  }
  if (ref.path === '') {
    if (ref.query !== undefined) target.query = ref.query;
    return format(target);
  }
  const path = ref.path.startsWith('/') ? ref.path : mergePaths(b, ref.path);
  return format({ ...target, path: removeDotSegments(path), query: ref.query });
}

/** Splits a URI into the part before `#` and the (still percent-encoded) fragment after it. */
export function splitFragment(uri: string): { uri: string; fragment: string } {
  const hash = uri.indexOf('#');
  return hash < 0
    ? { uri, fragment: '' }
    : { uri: uri.slice(0, hash), fragment: uri.slice(hash + 1) };
}
