// ESLint configuration: typed lint (strictTypeChecked) plus mcpkit's layering and naming rules.
// The layering rule is docs/design.md's "Layers": a layer imports only from lower layers.
import js from '@eslint/js';
import path from 'node:path';
import tseslint from 'typescript-eslint';

/** Restricts what the files matching `files` may import. */
const deny = (files, group, message) => ({
  files,
  ignores: ['**/*.test.ts'], // unit tests may use harnesses from any layer (the memory pair)
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] },
});
const L2 = ['**/protocol/**', '**/protocol/*.js'];
const L3 = ['**/server/**', '**/client/**', '**/transports/**', '**/validators/**'];
// L4, and the stores and extensions beside it: what no layer below imports (the CLI and servers/
// choose a store and the extensions they add).
const L4 = [
  '**/cli/**',
  '**/servers/**',
  '**/test/**',
  '**/stores/**',
  '**/ext/**',
  '**/openapi/**',
];

/** File names are kebab-case (the official TS SDK asked for it in prose and drifted). */
const kebabCase = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { name: 'file name "{{name}}" is not kebab-case' },
  },
  create(context) {
    const name = context.filename.split(/[\\/]/).pop() ?? '';
    const stem = name.replace(/(\.d)?(\.test)?(\.test-d)?\.(ts|js|mjs|cjs)$/, '');
    return {
      Program(node) {
        if (!/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/.test(stem)) {
          context.report({ node, messageId: 'name', data: { name } });
        }
      },
    };
  },
};

/** `application/json` is matched by parsing the media type, never by substring (a TS SDK bug). */
const noMediaTypeSubstring = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { sub: 'parse the media type instead of matching a substring' },
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        const arg = node.arguments[0];
        if (
          callee.type === 'MemberExpression' &&
          callee.property.type === 'Identifier' &&
          ['includes', 'indexOf', 'startsWith'].includes(callee.property.name) &&
          arg?.type === 'Literal' &&
          typeof arg.value === 'string' &&
          /^(application\/json|text\/event-stream)$/.test(arg.value)
        ) {
          context.report({ node, messageId: 'sub' });
        }
      },
    };
  },
};

/**
 * An extension (src/ext/<name>/) plugs in through the core's public seams: inside src/ it imports
 * its own folder, the public entries of jsonrpc/, protocol/, server/ and client/ (index.js), the
 * catalogue's (what many servers' tools say, which the host and the gateway read too), and
 * internal/; never a deeper core file, another extension, or a layer above the core.
 */
const extensionImports = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      seam: '"{{path}}": an extension imports its own folder and the public entries of jsonrpc, protocol, server, client and catalogue (index.js) only',
    },
  },
  create(context) {
    const file = context.filename.split(path.sep).join('/');
    const own = /^(.*\/src\/ext\/[^/]+)\//.exec(file)?.[1];
    if (own === undefined) return {};
    const src = own.replace(/\/ext\/[^/]+$/, '');
    const publicEntry = /^(jsonrpc|protocol|server|client|catalogue)\/index\.js$|^internal\//;
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (target.startsWith(`${own}/`) || !target.startsWith(`${src}/`)) return;
      if (publicEntry.test(target.slice(src.length + 1))) return;
      context.report({ node, messageId: 'seam', data: { path: spec } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

/**
 * A function literal assigned to a member (`x.y = () => …`, `this.#f ??= function …`) inside a
 * function is made by V8 in the old generation: its parser takes such a literal for a method and
 * pretenures it. Made per request, the closure then keeps its scope (the request, its reply) alive
 * past every scavenge until a full collection, and V8 soon pretenures what it points to as well
 * (issue #44 point 3: a legacy session over Redis cost 1.9x). A closure made in a local `const`
 * first, or returned by a function, is allocated young. Constructors and the top level are
 * exempt (what they make lives as long as its object or the module).
 */
const noMemberClosure = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      old: 'a function literal assigned to a member is allocated in the old generation (V8 pretenures it) and keeps its scope alive past scavenges: make it in a local const, or return it from a function (issue #44)',
    },
  },
  create(context) {
    const isFunction = (node) =>
      node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression';
    /** True when `node` runs once per object or per module: in a constructor, or at top level. */
    const exempt = (node) => {
      for (let up = node.parent; up; up = up.parent) {
        if (up.type === 'PropertyDefinition' && up.value !== null) return true;
        if (!isFunction(up) && up.type !== 'FunctionDeclaration') continue;
        const method = up.parent;
        return method?.type === 'MethodDefinition' && method.kind === 'constructor';
      }
      return true;
    };
    return {
      AssignmentExpression(node) {
        if (node.left.type !== 'MemberExpression' || !isFunction(node.right)) return;
        if (!exempt(node)) context.report({ node, messageId: 'old' });
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench/node_modules/**',
      'spec/**',
      '.conformance/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: {
      mcpkit: {
        rules: {
          'kebab-case': kebabCase,
          'no-media-type-substring': noMediaTypeSubstring,
          'extension-imports': extensionImports,
          'no-member-closure': noMemberClosure,
        },
      },
    },
    rules: {
      'mcpkit/kebab-case': 'error',
      'mcpkit/no-media-type-substring': 'error',
      'mcpkit/extension-imports': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unnecessary-condition': [
        'error',
        { allowConstantLoopConditions: true },
      ],
      'max-params': ['error', 3],
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'console',
          'process',
          'URL',
          'Buffer',
          'setTimeout',
          'clearTimeout',
          'TextEncoder',
          'TextDecoder',
          'fetch',
          'AbortController',
          'setInterval',
          'clearInterval',
          'performance',
          'Response',
          'Request',
          'Headers',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // Per-request closures on members: the library's code (issue #44 point 3).
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'mcpkit/no-member-closure': 'error' },
  },
  {
    files: ['scripts/**', 'src/cli/**', 'servers/**/bin.ts', 'test/**', 'bench/**', '**/*.test.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Size (docs style: files under 500 lines, functions under 80), for the library and the
    // servers; not for the generated schema, nor for tests (servers/*/test/ holds shared suites).
    files: ['src/**/*.ts', 'servers/**/*.ts'],
    ignores: ['src/protocol/schema/**', '**/*.test.ts', 'servers/**/test/**'],
    rules: {
      'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**', 'servers/**/test/**'],
    rules: {
      'max-params': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
  deny(
    ['src/internal/**'],
    ['**/jsonrpc/**', ...L2, ...L3, ...L4],
    'L0 imports nothing from the project',
  ),
  deny(['src/jsonrpc/**'], [...L2, ...L3, ...L4], 'L1 knows no MCP: import internal/ only'),
  deny(['src/protocol/**'], [...L3, ...L4], 'L2 imports jsonrpc/ and internal/ only'),
  deny(['src/validators/**'], [...L3, ...L4], 'validators plug into protocol/ only'),
  deny(['src/auth/**'], [...L3, ...L4], 'auth verifiers plug into protocol/ only'),
  {
    // The catalogue (config, names, tokens, search): a client's view of many servers. client/
    // and protocol/ through their index.js, the stdio and HTTP client transports' entries (a
    // config entry's transport), jsonrpc/ and internal/; never server/, host/, gateway/, cli/.
    files: ['src/catalogue/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/host/**', '**/gateway/**', ...L4],
              message: 'the catalogue sits below the host, the gateway and the CLI',
            },
            {
              regex:
                '^\\.\\./(client|protocol)/(?!index\\.js$)|^\\.\\./transports/(?!(stdio|http)/index\\.js$)',
              message:
                'the catalogue imports client/, protocol/ and the stdio and HTTP transports through their index.js',
            },
          ],
        },
      ],
    },
  },
  deny(
    ['src/host/**'],
    [
      '../server/**',
      '../gateway/**',
      '../cli/**',
      '../../servers/**',
      '**/test/**',
      '../stores/**',
      '../catalogue/*',
      '!../catalogue/index.js',
      '../code-mode/*',
      '!../code-mode/index.js',
    ],
    'the host is a client of servers: it imports client/, transports/, catalogue/index.js, code-mode/index.js and below',
  ),
  deny(
    ['src/code-mode/**'],
    [
      '../server/**',
      '../host/**',
      '../gateway/**',
      '../cli/**',
      '../../servers/**',
      '../stores/**',
      '../transports/**',
      '../catalogue/*',
      '!../catalogue/index.js',
    ],
    'mcpkit/code-mode (the sandbox and the run_code tool) sits below the host and the gateway: client/ types, catalogue/index.js',
  ),
  deny(
    ['src/openapi/**'],
    [
      '../cli/**',
      '../../servers/**',
      '**/test/**',
      '../stores/**',
      '../host/**',
      '../gateway/**',
      '../ext/**',
      '../transports/**',
      '../server/*',
      '!../server/index.js',
      '../client/*',
      '!../client/index.js',
      '../catalogue/*',
      '!../catalogue/index.js',
    ],
    'mcpkit/openapi sits on server/, client/ and catalogue/ (index.js), protocol/ and internal/',
  ),
  deny(
    ['src/gateway/**'],
    [
      '../cli/**',
      '../../servers/**',
      '**/test/**',
      '../stores/**',
      '../host/**',
      '../catalogue/*',
      '!../catalogue/index.js',
      '../code-mode/*',
      '!../code-mode/index.js',
    ],
    'the gateway sits below the CLI: server/, client/, transports/, catalogue/index.js and code-mode/index.js, never host/',
  ),
  {
    // The stores (Redis, PostgreSQL): each implements an interface of the core or of an extension
    // and imports it through the public entry of the layer that defines it (server/,
    // transports/http/, auth/, jsonrpc/, protocol/, ext/tasks/ index.js), internal/ besides;
    // never client/, host/, gateway/, cli/.
    files: ['src/stores/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/client/**',
                '**/host/**',
                '**/gateway/**',
                '**/catalogue/**',
                '**/cli/**',
                '**/servers/**',
                '**/test/**',
              ],
              message:
                'a store sees the public entries of the layers whose interfaces it implements',
            },
            {
              regex:
                '^\\.\\./\\.\\./(?!(jsonrpc|protocol|server|auth|ext/tasks)/index\\.js$|transports/http/index\\.js$|internal/)',
              message:
                'a store imports jsonrpc/, protocol/, server/, auth/, transports/http/ and the extensions whose store interfaces it implements (ext/tasks/) through their index.js',
            },
          ],
        },
      ],
    },
  },
  deny(
    ['src/server/**'],
    ['**/client/**', '**/transports/**', ...L4],
    'servers take a Transport, never import one',
  ),
  deny(
    ['src/client/**'],
    ['**/server/**', '**/transports/**', ...L4],
    'clients take a Transport, never import one',
  ),
  {
    // The layers server/ and client/, and within Streamable HTTP its server/ and client/ folders
    // (they share only the SSE codec): any path that climbs to a folder of either name.
    files: ['src/transports/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...L4], message: 'transports see jsonrpc/ + protocol/ only' },
            {
              regex: '^(\\.\\./)+(server|client)/',
              message:
                'transports see jsonrpc/ + protocol/ only; HTTP server/ and client/ share only sse.ts',
            },
          ],
        },
      ],
    },
  },
  {
    // L4 sits on the public surface: each layer's index.js and the transports' entry files (the
    // package's subpaths), at any depth (`../../protocol/x.js` from src/cli/commands/ too).
    // src/internal/ (helpers every layer shares) is not matched.
    files: ['servers/**', 'src/cli/**'],
    ignores: ['**/*.test.ts', 'servers/**/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '(/src/|^(\\.\\./)+)(jsonrpc|protocol|server|client|catalogue|host|gateway|auth|stores/redis|stores/postgres|ext/[^/]+)/(?!index\\.js$)',
              message: 'servers and the CLI import public entries (index.js) only',
            },
            {
              regex:
                '(/src/|^(\\.\\./)+)(transports/(?!(memory|http/node|http/index|stdio/index)\\.js$)|validators/(?!ajv\\.js$))',
              message: 'servers and the CLI import public entries (the package subpaths) only',
            },
          ],
        },
      ],
    },
  },
);
