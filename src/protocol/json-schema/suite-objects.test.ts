// JSON-Schema-Test-Suite-style cases (recalled, not fetched) for the object keywords.
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

const DRAFT7 = 'http://json-schema.org/draft-07/schema#';
const json = (text: string): unknown => JSON.parse(text);

const OBJECTS: Group[] = [
  {
    name: 'properties',
    schema: { properties: { foo: { type: 'integer' }, bar: { type: 'string' } } },
    valid: [{ foo: 1, bar: 'baz' }, { quux: [] }, [], 12],
    invalid: [
      { foo: 1, bar: {} },
      { foo: [], bar: 'x' },
    ],
  },
  {
    name: 'properties named like Object.prototype members',
    schema: json(
      '{"properties":{"__proto__":{"type":"number"},"toString":{"properties":{"length":{"type":"string"}}},"constructor":{"type":"number"}}}',
    ) as JsonSchema,
    valid: [{}, json('{"__proto__":12,"toString":{"length":"foo"},"constructor":37}')],
    invalid: [
      json('{"__proto__":"foo"}'),
      { toString: { length: 37 } },
      { constructor: { length: 37 } },
    ],
  },
  {
    name: 'boolean properties',
    schema: { properties: { foo: true, bar: false } },
    valid: [{}, { foo: 1 }],
    invalid: [{ bar: 2 }, { foo: 1, bar: 2 }],
  },
  {
    name: 'required',
    schema: { properties: { foo: {} }, required: ['foo'] },
    valid: [{ foo: 1 }, [], '', 12],
    invalid: [{ bar: 1 }],
  },
  {
    name: 'required Object.prototype names',
    schema: { required: ['__proto__', 'toString', 'constructor'] },
    valid: [json('{"__proto__":1,"toString":1,"constructor":1}')],
    invalid: [{}, json('{"__proto__":"foo"}')],
  },
  {
    name: 'required escapes',
    schema: { required: ['foo\nbar', 'foo"bar'] },
    valid: [{ 'foo\nbar': 1, 'foo"bar': 1 }],
    invalid: [{ 'foo\nbar': 1 }],
  },
  {
    name: 'additionalProperties false with patterns',
    schema: {
      properties: { foo: {}, bar: {} },
      patternProperties: { '^v': {} },
      additionalProperties: false,
    },
    valid: [{ foo: 1 }, [1, 2, 3], 'foobarbaz', { foo: 1, vroom: 2 }],
    invalid: [{ foo: 1, bar: 2, quux: 'boom' }],
  },
  {
    name: 'non-ASCII pattern',
    schema: { patternProperties: { '^á': {} }, additionalProperties: false },
    valid: [{ ármányos: 2 }],
    invalid: [{ élmény: 2 }],
  },
  {
    name: 'additionalProperties schema',
    schema: { properties: { foo: {}, bar: {} }, additionalProperties: { type: 'boolean' } },
    valid: [{ foo: 1 }, { foo: 1, bar: 2, quux: true }],
    invalid: [{ foo: 1, bar: 2, quux: 12 }],
  },
  {
    name: 'additionalProperties ignores applicators',
    schema: { allOf: [{ properties: { foo: {} } }], additionalProperties: { type: 'boolean' } },
    valid: [{ foo: true }],
    invalid: [{ foo: 1, bar: true }],
  },
  {
    name: 'patternProperties',
    schema: { patternProperties: { 'f.*o': { type: 'integer' } } },
    valid: [{ foo: 1 }, { foo: 1, foooooo: 2 }, ['foo']],
    invalid: [
      { foo: 'bar', fooooo: 2 },
      { foo: 'bar', foooooo: 'baz' },
    ],
  },
  {
    name: 'overlapping patternProperties',
    schema: { patternProperties: { 'a*': { type: 'integer' }, 'aaa*': { maximum: 20 } } },
    valid: [{ a: 21 }, { aaaa: 18 }],
    invalid: [{ a: 21, aaaa: 21 }, { aaaa: 31 }, { aaa: 'foo', aaaa: 31 }],
  },
  {
    name: 'patterns are not anchored',
    schema: { patternProperties: { '[0-9]{2,}': { type: 'boolean' }, X_: { type: 'string' } } },
    valid: [{ 'answer 1': '42' }, { a_x_3: 3 }],
    invalid: [{ a31b: null }, { a_X_3: 3 }],
  },
  {
    name: 'boolean patternProperties',
    schema: { patternProperties: { 'f.*': true, 'b.*': false } },
    valid: [{ foo: 1 }, {}],
    invalid: [{ bar: 2 }, { foobar: 1 }],
  },
  {
    name: 'propertyNames maxLength',
    schema: { propertyNames: { maxLength: 3 } },
    valid: [{ f: {}, foo: {} }, {}, [1, 2, 3, 4], 'foobar'],
    invalid: [{ foo: {}, foobar: {} }],
  },
  {
    name: 'propertyNames pattern',
    schema: { propertyNames: { pattern: '^a+$' } },
    valid: [{ a: {}, aa: {} }],
    invalid: [{ aaA: {} }],
  },
  {
    name: 'propertyNames false',
    schema: { propertyNames: false },
    valid: [{}],
    invalid: [{ foo: 1 }],
  },
  {
    name: 'maxProperties',
    schema: { maxProperties: 2 },
    valid: [{ foo: 1 }, { foo: 1, bar: 2 }, [1, 2, 3], 'foobar'],
    invalid: [{ foo: 1, bar: 2, baz: 3 }],
  },
  {
    name: 'maxProperties 0',
    schema: { maxProperties: 0 },
    valid: [{}],
    invalid: [{ foo: 1 }],
  },
  {
    name: 'minProperties',
    schema: { minProperties: 1 },
    valid: [{ foo: 1 }, [], ''],
    invalid: [{}],
  },
  {
    name: 'dependentRequired',
    schema: { dependentRequired: { bar: ['foo'] } },
    valid: [{}, { foo: 1 }, { foo: 1, bar: 2 }, ['bar']],
    invalid: [{ bar: 2 }],
  },
  {
    name: 'dependentRequired empty',
    schema: { dependentRequired: { bar: [] } },
    valid: [{ bar: 2 }],
    invalid: [],
  },
  {
    name: 'dependentRequired multiple',
    schema: { dependentRequired: { quux: ['foo', 'bar'] } },
    valid: [{ quux: 1, foo: 1, bar: 1 }],
    invalid: [{ quux: 1, foo: 1 }],
  },
  {
    name: 'dependentSchemas',
    schema: {
      dependentSchemas: {
        bar: { properties: { foo: { type: 'integer' }, bar: { type: 'integer' } } },
      },
    },
    valid: [{ foo: 1, bar: 2 }, { foo: 'quux' }, 'bar'],
    invalid: [
      { foo: 'quux', bar: 2 },
      { foo: 2, bar: 'quux' },
    ],
  },
  {
    name: 'boolean dependentSchemas',
    schema: { dependentSchemas: { foo: true, bar: false } },
    valid: [{ foo: 1 }, {}],
    invalid: [{ bar: 2 }],
  },
  {
    name: 'draft-07 dependencies (array)',
    schema: { $schema: DRAFT7, dependencies: { bar: ['foo'] } },
    valid: [{ foo: 1, bar: 2 }],
    invalid: [{ bar: 2 }],
  },
  {
    name: 'draft-07 dependencies (schema)',
    schema: {
      $schema: DRAFT7,
      dependencies: { bar: { properties: { foo: { type: 'integer' } } } },
    },
    valid: [{ foo: 'q' }, { foo: 1, bar: 2 }],
    invalid: [{ foo: 'q', bar: 2 }],
  },
];

for (const [section, groups] of Object.entries({ OBJECTS })) {
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
