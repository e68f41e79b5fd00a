// Property-based tests of URI templates and the built-in JSON Schema validator: arbitrary input
// never throws past the documented errors, expansion and matching agree, and the validator agrees
// with Ajv on generated schemas.
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  bearerChallenge,
  challengeText,
  parseChallenges,
} from '../../src/protocol/auth.js';
import { compileJsonSchema } from '../../src/protocol/json-schema/index.js';
import { SchemaError } from '../../src/protocol/json-schema/index.js';
import { UriTemplate } from '../../src/protocol/uri-template/index.js';
import { FUZZ, FUZZ_TIMEOUT_MS, jsonValue } from './settings.js';

describe('fuzz: URI templates', () => {
  it(
    'parse throws only TypeError, and match never throws on arbitrary URIs',
    () => {
      fc.assert(
        fc.property(fc.string(), fc.string({ unit: 'grapheme' }), (template, uri) => {
          let parsed: UriTemplate;
          try {
            parsed = UriTemplate.parse(template);
          } catch (error) {
            expect(error).toBeInstanceOf(TypeError);
            return;
          }
          expect(() => parsed.match(uri)).not.toThrow();
          expect(() => parsed.expand({})).not.toThrow();
        }),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'matches what it expands, for simple and reserved expansion of safe values',
    () => {
      const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);
      const value = fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
        .filter((s) => !s.includes('/'));
      fc.assert(
        fc.property(name, name, value, value, (a, b, x, y) => {
          fc.pre(a !== b);
          const template = UriTemplate.parse(`test://items/{${a}}/parts/{${b}}`);
          const uri = template.expand({ [a]: x, [b]: y });
          expect(template.match(uri)).toEqual({ [a]: x, [b]: y });
        }),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});

describe('fuzz: JSON Schema validator', () => {
  // Small schemas from the keywords tools use most.
  const leaf = fc.oneof(
    fc.constant({ type: 'string' }),
    fc.constant({ type: 'integer' }),
    fc.constant({ type: 'number', minimum: 0 }),
    fc.constant({ type: 'boolean' }),
    fc.constant({ type: 'null' }),
    fc.record({
      type: fc.constant('string'),
      minLength: fc.nat(3),
      maxLength: fc.integer({ min: 3, max: 8 }),
    }),
    fc.record({
      enum: fc.array(fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
    fc.record({ const: jsonValue }),
    fc.record({
      type: fc.constant('string'),
      pattern: fc.constantFrom('^[a-z]+$', '\\d', '^$', 'a|b'),
    }),
  );
  const schema: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({
        type: fc.constant('object'),
        properties: fc.dictionary(fc.string({ maxLength: 3 }), tie('node'), { maxKeys: 3 }),
        // Ajv ignores an empty name in `required` (ours, as the spec says, requires it).
        required: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 2 }),
        additionalProperties: fc.boolean(),
      }),
      fc.record({ type: fc.constant('array'), items: tie('node'), maxItems: fc.nat(4) }),
      fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ oneOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ not: tie('node') }),
    ),
  })).node;

  it(
    'agrees with Ajv on generated schemas and values, and never throws',
    () => {
      const ajv = new Ajv2020.default({ strict: false, allErrors: false, unicodeRegExp: true });
      fc.assert(
        fc.property(schema, fc.array(jsonValue, { maxLength: 4 }), (s, values) => {
          const ours = compileJsonSchema(s);
          const theirs = ajv.compile(s);
          for (const value of values) {
            expect(ours(value).valid, JSON.stringify({ s, value })).toBe(theirs(value));
          }
        }),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'compiles arbitrary JSON as a schema or throws SchemaError, and then never throws on a value',
    () => {
      fc.assert(
        fc.property(jsonValue, jsonValue, (s, value) => {
          let validate;
          try {
            validate = compileJsonSchema(s as never);
          } catch (error) {
            expect(error).toBeInstanceOf(SchemaError);
            return;
          }
          const result = validate(value);
          expect(typeof result.valid).toBe('boolean');
        }),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});

describe('fuzz: WWW-Authenticate challenges', () => {
  it(
    'parseChallenges never throws, and reads back what bearerChallenge writes',
    () => {
      fc.assert(
        fc.property(fc.string(), (header) => {
          expect(() => parseChallenges(header)).not.toThrow();
        }),
        FUZZ,
      );
      const text = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !/[\r\n]/.test(s));
      const scope = fc.stringMatching(/^[a-z][a-z:_.]{0,11}$/);
      fc.assert(
        fc.property(text, fc.array(scope, { maxLength: 4 }), (description, scopes) => {
          const header = bearerChallenge({
            metadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
            error: new AuthError('invalid_token', description),
            scopes,
          });
          const [challenge] = parseChallenges(header);
          expect(challenge?.scheme).toBe('Bearer');
          expect(challenge?.params['error_description']).toBe(challengeText(description));
          if (scopes.length > 0) expect(challenge?.params['scope']).toBe(scopes.join(' '));
        }),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
