// JSON-Schema-Test-Suite-style cases (recalled, not fetched) for the applicators and unevaluated*.
// Each group is one schema with the instances it must accept and reject.
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from './validator.js';
import type { JsonSchema } from './types.js';

interface Group {
  name: string;
  schema: JsonSchema | boolean;
  valid: unknown[];
  invalid: unknown[];
}

const APPLICATORS: Group[] = [
  {
    name: 'allOf',
    schema: {
      allOf: [
        { properties: { bar: { type: 'integer' } }, required: ['bar'] },
        { properties: { foo: { type: 'string' } }, required: ['foo'] },
      ],
    },
    valid: [{ foo: 'baz', bar: 2 }],
    invalid: [{ foo: 'baz' }, { bar: 2 }, { foo: 'baz', bar: 'quux' }],
  },
  { name: 'allOf booleans', schema: { allOf: [true, false] }, valid: [], invalid: ['foo'] },
  {
    name: 'anyOf',
    schema: { anyOf: [{ type: 'integer' }, { minimum: 2 }] },
    valid: [1, 2.5, 3],
    invalid: [1.5],
  },
  {
    name: 'anyOf with base',
    schema: { type: 'string', anyOf: [{ maxLength: 2 }, { minLength: 4 }] },
    valid: ['foobar'],
    invalid: [3, 'foo'],
  },
  { name: 'anyOf booleans', schema: { anyOf: [true, false] }, valid: ['foo'], invalid: [] },
  { name: 'anyOf all false', schema: { anyOf: [false, false] }, valid: [], invalid: ['foo'] },
  {
    name: 'oneOf',
    schema: { oneOf: [{ type: 'integer' }, { minimum: 2 }] },
    valid: [1, 2.5],
    invalid: [3, 1.5],
  },
  {
    name: 'oneOf booleans all true',
    schema: { oneOf: [true, true, true] },
    valid: [],
    invalid: ['foo'],
  },
  { name: 'oneOf one true', schema: { oneOf: [true, false, false] }, valid: ['foo'], invalid: [] },
  {
    name: 'oneOf with required',
    schema: { type: 'object', oneOf: [{ required: ['foo', 'bar'] }, { required: ['foo', 'baz'] }] },
    valid: [
      { foo: 1, bar: 2 },
      { foo: 1, baz: 3 },
    ],
    invalid: [{ bar: 2 }, { foo: 1, bar: 2, baz: 3 }],
  },
  {
    name: 'not',
    schema: { not: { type: 'integer' } },
    valid: ['foo'],
    invalid: [1],
  },
  {
    name: 'not multiple types',
    schema: { not: { type: ['integer', 'boolean'] } },
    valid: ['foo'],
    invalid: [1, true],
  },
  {
    name: 'not true',
    schema: { not: true },
    valid: [],
    invalid: ['foo', {}],
  },
  { name: 'not false', schema: { not: false }, valid: ['foo'], invalid: [] },
  {
    name: 'if/then',
    schema: { if: { exclusiveMaximum: 0 }, then: { minimum: -10 } },
    valid: [-1, 3],
    invalid: [-100],
  },
  {
    name: 'if/else',
    schema: { if: { exclusiveMaximum: 0 }, else: { multipleOf: 2 } },
    valid: [-1, 4],
    invalid: [3],
  },
  {
    name: 'if/then/else',
    schema: { if: { exclusiveMaximum: 0 }, then: { minimum: -10 }, else: { multipleOf: 2 } },
    valid: [-1, 4],
    invalid: [-100, 3],
  },
  {
    name: 'then without if',
    schema: { then: { const: 0 } },
    valid: [0, 'other'],
    invalid: [],
  },
  {
    name: 'if true',
    schema: { if: true, then: { const: 'then' }, else: { const: 'else' } },
    valid: ['then'],
    invalid: ['else'],
  },
  {
    name: 'if false',
    schema: { if: false, then: { const: 'then' }, else: { const: 'else' } },
    valid: ['else'],
    invalid: ['then'],
  },
  {
    name: 'true schema',
    schema: true,
    valid: [1, 'foo', {}, [], null],
    invalid: [],
  },
  {
    name: 'false schema',
    schema: false,
    valid: [],
    invalid: [1, 'foo', {}, null],
  },
  {
    name: 'empty schema',
    schema: {},
    valid: [1, { a: [1] }],
    invalid: [],
  },
  {
    name: 'unknown keywords ignored',
    schema: { frobnicate: 3, title: 'x', description: 'y', default: 1, examples: [] },
    valid: ['anything'],
    invalid: [],
  },
];

const UNEVALUATED: Group[] = [
  {
    name: 'with properties',
    schema: {
      type: 'object',
      properties: { foo: { type: 'string' } },
      unevaluatedProperties: false,
    },
    valid: [{ foo: 'foo' }],
    invalid: [{ foo: 'foo', bar: 'bar' }],
  },
  {
    name: 'with allOf',
    schema: {
      type: 'object',
      properties: { foo: { type: 'string' } },
      allOf: [{ properties: { bar: { type: 'string' } } }],
      unevaluatedProperties: false,
    },
    valid: [{ foo: 'foo', bar: 'bar' }],
    invalid: [{ foo: 'foo', bar: 'bar', baz: 'baz' }],
  },
  {
    name: 'with anyOf',
    schema: {
      type: 'object',
      properties: { foo: { type: 'string' } },
      anyOf: [
        { properties: { bar: { const: 'bar' } }, required: ['bar'] },
        { properties: { baz: { const: 'baz' } }, required: ['baz'] },
        { properties: { quux: { const: 'quux' } }, required: ['quux'] },
      ],
      unevaluatedProperties: false,
    },
    valid: [
      { foo: 'foo', bar: 'bar' },
      { foo: 'foo', bar: 'bar', baz: 'baz' },
    ],
    invalid: [
      { foo: 'foo', bar: 'bar', baz: 'not-baz' },
      { foo: 'foo', bar: 'bar', baz: 'baz', quux: 'not-quux' },
    ],
  },
  {
    name: 'with oneOf',
    schema: {
      properties: { foo: { type: 'string' } },
      oneOf: [
        { properties: { bar: { const: 'bar' } }, required: ['bar'] },
        { properties: { baz: { const: 'baz' } }, required: ['baz'] },
      ],
      unevaluatedProperties: false,
    },
    valid: [{ foo: 'foo', bar: 'bar' }],
    invalid: [{ foo: 'foo', bar: 'bar', quux: 'quux' }],
  },
  {
    name: 'with if/then/else',
    schema: {
      if: { properties: { foo: { const: 'then' } }, required: ['foo'] },
      then: { properties: { bar: { type: 'string' } }, required: ['bar'] },
      else: { properties: { baz: { type: 'string' } }, required: ['baz'] },
      unevaluatedProperties: false,
    },
    valid: [{ foo: 'then', bar: 'bar' }, { baz: 'baz' }],
    invalid: [
      { foo: 'then', bar: 'bar', baz: 'baz' },
      { foo: 'else', baz: 'baz' },
    ],
  },
  {
    name: 'with bare if',
    schema: { if: { properties: { foo: { const: 'a' } } }, unevaluatedProperties: false },
    valid: [{ foo: 'a' }],
    invalid: [{ foo: 'b' }],
  },
  {
    name: 'with not',
    schema: {
      not: { not: { properties: { bar: { const: 'bar' } }, required: ['bar'] } },
      unevaluatedProperties: false,
    },
    valid: [],
    invalid: [{ bar: 'bar' }],
  },
  {
    name: 'with $ref',
    schema: {
      $ref: '#/$defs/bar',
      properties: { foo: { type: 'string' } },
      unevaluatedProperties: false,
      $defs: { bar: { properties: { bar: { type: 'string' } } } },
    },
    valid: [{ foo: 'foo', bar: 'bar' }],
    invalid: [{ foo: 'foo', bar: 'bar', baz: 'baz' }],
  },
  {
    name: 'nested unevaluatedProperties true',
    schema: {
      properties: { foo: {} },
      allOf: [{ unevaluatedProperties: true }],
      unevaluatedProperties: false,
    },
    valid: [{ foo: 1, bar: 2 }],
    invalid: [],
  },
  {
    name: 'adjacent additionalProperties',
    schema: { properties: { foo: {} }, additionalProperties: true, unevaluatedProperties: false },
    valid: [{ foo: 1, bar: 2 }],
    invalid: [],
  },
  {
    name: 'unevaluatedProperties schema',
    schema: { unevaluatedProperties: { type: 'string', minLength: 3 } },
    valid: [{ foo: 'foo' }],
    invalid: [{ foo: 'fo' }],
  },
  {
    name: 'cousins cannot see each other',
    schema: { allOf: [{ properties: { foo: true } }, { unevaluatedProperties: false }] },
    valid: [],
    invalid: [{ foo: 'foo' }],
  },
  {
    name: 'with patternProperties',
    schema: { patternProperties: { '^foo': { type: 'string' } }, unevaluatedProperties: false },
    valid: [{ foo: 'foo' }],
    invalid: [{ foo: 'foo', bar: 'bar' }],
  },
  {
    name: 'with dependentSchemas',
    schema: {
      properties: { foo: {} },
      dependentSchemas: { foo: { properties: { bar: { const: 'bar' } }, required: ['bar'] } },
      unevaluatedProperties: false,
    },
    valid: [{ foo: 1, bar: 'bar' }],
    invalid: [{ bar: 'bar' }],
  },
  {
    name: 'nested objects are separate instances',
    schema: { properties: { inner: { properties: { x: {} } } }, unevaluatedProperties: false },
    valid: [{ inner: { x: 1, y: 2 } }],
    invalid: [{ inner: {}, y: 2 }],
  },
  {
    name: 'unevaluatedItems false',
    schema: { unevaluatedItems: false },
    valid: [[]],
    invalid: [[1]],
  },
  {
    name: 'unevaluatedItems with prefixItems',
    schema: { prefixItems: [{ type: 'string' }], unevaluatedItems: false },
    valid: [['foo']],
    invalid: [['foo', 'bar']],
  },
  {
    name: 'unevaluatedItems with items',
    schema: { items: { type: 'string' }, unevaluatedItems: false },
    valid: [['foo', 'bar']],
    invalid: [],
  },
  {
    name: 'unevaluatedItems with nested prefixItems',
    schema: {
      prefixItems: [{ type: 'string' }],
      allOf: [{ prefixItems: [true, { type: 'number' }] }],
      unevaluatedItems: false,
    },
    valid: [['foo', 42]],
    invalid: [['foo', 42, true]],
  },
  {
    name: 'unevaluatedItems with contains',
    schema: { contains: { type: 'string' }, unevaluatedItems: { type: 'number' } },
    valid: [[1, 'a', 2]],
    invalid: [[1, 'a', true]],
  },
];

for (const [section, groups] of Object.entries({ APPLICATORS, UNEVALUATED })) {
  describe(section, () => {
    for (const group of groups) {
      it(group.name, () => {
        const validate = compileJsonSchema(group.schema);
        for (const data of group.valid)
          expect({ data, valid: validate(data).valid }).toEqual({ data, valid: true });
        for (const data of group.invalid) {
          const result = validate(data);
          expect({ data, valid: result.valid }).toEqual({ data, valid: false });
          expect(result.issues.length).toBeGreaterThan(0);
        }
      });
    }
  });
}
