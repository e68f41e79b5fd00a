// JSON-Schema-Test-Suite-style cases (recalled, not fetched) for the array keywords.
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

const ARRAYS: Group[] = [
  {
    name: 'items schema',
    schema: { items: { type: 'integer' } },
    valid: [[1, 2, 3], { 0: 'invalid' }],
    invalid: [[1, 'x']],
  },
  { name: 'items true', schema: { items: true }, valid: [[1, 'foo', true]], invalid: [] },
  {
    name: 'items false',
    schema: { items: false },
    valid: [[]],
    invalid: [[1]],
  },
  {
    name: 'prefixItems with items false',
    schema: { prefixItems: [{ type: 'integer' }, { type: 'string' }], items: false },
    valid: [[1, 'foo'], [1]],
    invalid: [[1, 'foo', 2], ['a']],
  },
  {
    name: 'prefixItems alone',
    schema: { prefixItems: [{ type: 'integer' }, { type: 'string' }] },
    valid: [[1, 'foo', null, true], [], {}],
    invalid: [['foo', 1]],
  },
  {
    name: 'items after prefixItems',
    schema: { prefixItems: [{}], items: { type: 'integer' } },
    valid: [['x', 2, 3]],
    invalid: [['x', 'y']],
  },
  {
    name: 'items ignores prefixItems in applicators',
    schema: { allOf: [{ prefixItems: [{ minimum: 3 }] }], items: { minimum: 5 } },
    valid: [[5, 5]],
    invalid: [[3, 5]],
  },
  {
    name: 'draft-07 tuple items',
    schema: { $schema: DRAFT7, items: [{ type: 'integer' }, { type: 'string' }] },
    valid: [
      [1, 'foo'],
      [1, 'foo', true],
    ],
    invalid: [['foo', 1]],
  },
  {
    name: 'draft-07 additionalItems false',
    schema: {
      $schema: DRAFT7,
      items: [{ type: 'integer' }, { type: 'string' }],
      additionalItems: false,
    },
    valid: [[1]],
    invalid: [[1, 'foo', true]],
  },
  {
    name: 'draft-07 additionalItems schema',
    schema: { $schema: DRAFT7, items: [{}], additionalItems: { type: 'integer' } },
    valid: [[null, 2, 3]],
    invalid: [[null, 2, 'foo']],
  },
  {
    name: 'additionalItems ignored after schema items',
    schema: { $schema: DRAFT7, items: {}, additionalItems: false },
    valid: [[1, 2, 3]],
    invalid: [],
  },
  {
    name: 'additionalItems ignored without items',
    schema: { $schema: DRAFT7, additionalItems: false },
    valid: [[1, 2, 3]],
    invalid: [],
  },
  {
    name: 'prefixItems unknown in draft-07',
    schema: { $schema: DRAFT7, prefixItems: [{ type: 'string' }] },
    valid: [[1]],
    invalid: [],
  },
  {
    name: 'array items without $schema read as a tuple',
    schema: { items: [{ type: 'integer' }], additionalItems: false },
    valid: [[1]],
    invalid: [['a'], [1, 2]],
  },
  {
    name: 'contains',
    schema: { contains: { minimum: 5 } },
    valid: [[3, 4, 5], {}],
    invalid: [[2, 3, 4], []],
  },
  {
    name: 'contains true',
    schema: { contains: true },
    valid: [['foo']],
    invalid: [[]],
  },
  {
    name: 'contains false',
    schema: { contains: false },
    valid: ['not array'],
    invalid: [['foo'], []],
  },
  {
    name: 'minContains',
    schema: { contains: { const: 1 }, minContains: 2 },
    valid: [
      [1, 1],
      [1, 2, 1],
    ],
    invalid: [[1]],
  },
  {
    name: 'maxContains',
    schema: { contains: { const: 1 }, maxContains: 1 },
    valid: [[1], [1, 2]],
    invalid: [[1, 1], []],
  },
  {
    name: 'minContains 0',
    schema: { contains: { const: 1 }, minContains: 0 },
    valid: [[], [2]],
    invalid: [],
  },
  {
    name: 'minContains 0 maxContains 1',
    schema: { contains: { const: 1 }, minContains: 0, maxContains: 1 },
    valid: [[]],
    invalid: [[1, 1]],
  },
  {
    name: 'maxItems',
    schema: { maxItems: 2 },
    valid: [[1], 'foobar'],
    invalid: [[1, 2, 3]],
  },
  {
    name: 'minItems',
    schema: { minItems: 1 },
    valid: [[1]],
    invalid: [[]],
  },
  {
    name: 'uniqueItems',
    schema: { uniqueItems: true },
    valid: [
      [1, 2],
      [{ foo: 'bar' }, { foo: 'baz' }],
      [[1], [true]],
      [0, false],
      [1, true],
      [{}, [1], true, null, 1, '{}'],
      [{ a: false }, { a: 0 }],
      Array.from({ length: 40 }, (_, i) => i),
      [...Array.from({ length: 30 }, (_, i) => [i]), 'x'],
    ],
    invalid: [
      [1, 1],
      [1, 1.0],
      ['foo', 'bar', 'foo'],
      [{ foo: 'bar' }, { foo: 'bar' }],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [[1], [1]],
      [{}, [1], true, null, {}, 1],
      [null, null],
      [...Array.from({ length: 40 }, (_, i) => i), 7],
      [...Array.from({ length: 30 }, (_, i) => ({ i })), { i: 3 }],
    ],
  },
  { name: 'uniqueItems false', schema: { uniqueItems: false }, valid: [[1, 1]], invalid: [] },
];

for (const [section, groups] of Object.entries({ ARRAYS })) {
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
