// Coverage-guided fuzz targets for Jazzer.js (docs/fuzzing.md): each takes the fuzzer's bytes and
// throws only on a real defect. They run against the build (npm run build first); the JSON Schema
// validator has no public entry in the build, so fast-check covers it (test/fuzz) and Jazzer does
// not. Not run by vitest; `node test/fuzz/targets/inputs.mjs` feeds each a few inputs as a check.
import { decode } from '../../../dist/esm/src/jsonrpc/index.js';
import { UriTemplate } from '../../../dist/esm/src/protocol/index.js';
import { SseParser } from '../../../dist/esm/src/transports/http/index.js';
import { createLineSplitter } from '../../../dist/esm/src/transports/stdio/index.js';

/** Every target, by name: a function of a Buffer. */
export const targets = {
  jsonrpc(data) {
    const decoded = decode(data.toString('utf8'), { allowBatch: true });
    if (decoded.kind === 'invalid' && decoded.response.id !== null)
      throw new Error('invalid input answered with an id');
  },
  sse(data) {
    const parser = new SseParser(() => undefined, {
      maxLineLength: 4096,
      onError: () => undefined,
    });
    const text = data.toString('utf8');
    const cut = data.length > 0 ? data[0] % (text.length + 1) : 0;
    parser.push(text.slice(0, cut));
    parser.push(text.slice(cut));
  },
  stdio(data) {
    const splitter = createLineSplitter(() => undefined, {
      maxLineBytes: 1024,
      onError: () => undefined,
    });
    splitter.push(data);
    splitter.end();
  },
  uriTemplate(data) {
    const [template = '', uri = ''] = data.toString('utf8').split('\n');
    let parsed;
    try {
      parsed = UriTemplate.parse(template);
    } catch (error) {
      if (error instanceof TypeError) return;
      throw error;
    }
    parsed.match(uri);
  },
};

const name = process.env['MCPKIT_FUZZ_TARGET'] ?? 'jsonrpc';
/** The entry point Jazzer.js calls; MCPKIT_FUZZ_TARGET picks the target (default jsonrpc). */
export function fuzz(data) {
  targets[name](data);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const samples = [
    '',
    '{',
    '[]',
    '{"jsonrpc":"2.0","id":1,"method":"x"}',
    'data: a\r\n\r\n',
    '{a}\nx',
    '{"type":"string"}\n"x"',
  ];
  for (const [target, run] of Object.entries(targets)) {
    for (const sample of samples) run(Buffer.from(sample));
    console.log(`${target}: ok`);
  }
}
