// JSON-Schema-Test-Suite-style cases (recalled, not fetched) for type, enum, const and the string
// and number keywords. Each group is one schema with the instances it must accept and reject.
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from './validator.js';
import type { JsonSchema } from './types.js';

interface Group {
  name: string;
  schema: JsonSchema | boolean;
  valid: unknown[];
  invalid: unknown[];
}

const TYPE: Group[] = [
  {
    name: 'integer',
    schema: { type: 'integer' },
    valid: [1, 1.0, -5],
    invalid: [1.1, 'foo', '1', {}, [], true, null],
  },
  {
    name: 'number',
    schema: { type: 'number' },
    valid: [1, 1.1],
    invalid: ['1', null],
  },
  {
    name: 'string',
    schema: { type: 'string' },
    valid: ['foo', ''],
    invalid: [1, []],
  },
  {
    name: 'object',
    schema: { type: 'object' },
    valid: [{}],
    invalid: [[], null, '{}'],
  },
  {
    name: 'array',
    schema: { type: 'array' },
    valid: [[]],
    invalid: [{}, '[]'],
  },
  {
    name: 'boolean',
    schema: { type: 'boolean' },
    valid: [true, false],
    invalid: [0, '', null],
  },
  {
    name: 'null',
    schema: { type: 'null' },
    valid: [null],
    invalid: [0, false, ''],
  },
  {
    name: 'multiple types',
    schema: { type: ['integer', 'string'] },
    valid: [1, 'foo'],
    invalid: [1.1, {}, null],
  },
  {
    name: 'nullable',
    schema: { type: ['string', 'null'] },
    valid: [null, 'a'],
    invalid: [1],
  },
];

const ENUM_CONST: Group[] = [
  {
    name: 'simple enum',
    schema: { enum: [1, 2, 3] },
    valid: [1],
    invalid: [4, '1'],
  },
  {
    name: 'heterogeneous enum',
    schema: { enum: [6, 'foo', [], true, { foo: 12 }] },
    valid: [[], { foo: 12 }],
    invalid: [null, { foo: false }, { foo: 12, boo: 42 }],
  },
  {
    name: 'enum [false]',
    schema: { enum: [false] },
    valid: [false],
    invalid: [0, 0.0],
  },
  {
    name: 'enum [0]',
    schema: { enum: [0] },
    valid: [0, 0.0],
    invalid: [false],
  },
  {
    name: 'enum [[false]]',
    schema: { enum: [[false]] },
    valid: [[false]],
    invalid: [[0]],
  },
  {
    name: 'enum escapes',
    schema: { enum: ['foo\nbar', 'foo\rbar'] },
    valid: ['foo\nbar'],
    invalid: ['abc'],
  },
  {
    name: 'enum key order',
    schema: { enum: [{ a: 1, b: 2 }] },
    valid: [{ b: 2, a: 1 }],
    invalid: [{ a: 1 }],
  },
  {
    name: 'const number',
    schema: { const: 2 },
    valid: [2],
    invalid: [5, 'a'],
  },
  {
    name: 'const object',
    schema: { const: { foo: 'bar', baz: 'bax' } },
    valid: [
      { foo: 'bar', baz: 'bax' },
      { baz: 'bax', foo: 'bar' },
    ],
    invalid: [{ foo: 'bar' }, [1, 2]],
  },
  {
    name: 'const array',
    schema: { const: [{ foo: 'bar' }] },
    valid: [[{ foo: 'bar' }]],
    invalid: [[2], { foo: 'bar' }],
  },
  {
    name: 'const null',
    schema: { const: null },
    valid: [null],
    invalid: [0],
  },
  {
    name: 'const false',
    schema: { const: false },
    valid: [false],
    invalid: [0],
  },
  {
    name: 'const 0',
    schema: { const: 0 },
    valid: [0, -0],
    invalid: [false, {}, ''],
  },
  {
    name: 'const 1',
    schema: { const: 1 },
    valid: [1.0],
    invalid: [true],
  },
  {
    name: 'const big',
    schema: { const: 9007199254740992 },
    valid: [9007199254740992],
    invalid: [9007199254740991],
  },
  {
    name: 'const nul',
    schema: { const: 'hello\u0000there' },
    valid: ['hello\u0000there'],
    invalid: ['hellothere'],
  },
];

const SCALARS: Group[] = [
  {
    name: 'maxLength',
    schema: { maxLength: 2 },
    valid: ['f', 'fo', 100, '\u{1F4A9}\u{1F4A9}'],
    invalid: ['foo'],
  },
  {
    name: 'minLength',
    schema: { minLength: 2 },
    valid: ['foo', 1],
    invalid: ['f', '\u{1F4A9}'],
  },
  {
    name: 'code points',
    schema: { minLength: 3, maxLength: 3 },
    valid: ['\u{1F4A9}\u{1F4A9}\u{1F4A9}', 'ab\u{1F4A9}'],
    invalid: ['abcd'],
  },
  {
    name: 'pattern',
    schema: { pattern: '^a*$' },
    valid: ['aaa', true],
    invalid: ['abc'],
  },
  {
    name: 'pattern not anchored',
    schema: { pattern: 'a+' },
    valid: ['xxaayy'],
    invalid: ['xyz'],
  },
  {
    name: 'pattern with \\p (u flag)',
    schema: { pattern: '^\\p{L}+$' },
    valid: ['héllo'],
    invalid: ['h3'],
  },
  {
    name: 'pattern with a legacy escape (no u flag)',
    schema: { pattern: '^[a-z]+\\_[0-9]$' },
    valid: ['ab_1'],
    invalid: ['ab1'],
  },
  {
    name: 'pattern \\d is ASCII',
    schema: { pattern: '^\\d+$' },
    valid: ['42'],
    invalid: ['٤٢'],
  },
  {
    name: 'maximum',
    schema: { maximum: 3.0 },
    valid: [2.6, 3.0, 'x'],
    invalid: [3.5],
  },
  {
    name: 'minimum',
    schema: { minimum: 1.1 },
    valid: [1.1, 'x'],
    invalid: [0.6],
  },
  {
    name: 'negative minimum',
    schema: { minimum: -2 },
    valid: [-1, -2],
    invalid: [-2.0001],
  },
  {
    name: 'exclusiveMaximum',
    schema: { exclusiveMaximum: 3.0 },
    valid: [2.2],
    invalid: [3.0],
  },
  {
    name: 'exclusiveMinimum',
    schema: { exclusiveMinimum: 1.1 },
    valid: [1.2],
    invalid: [1.1],
  },
  {
    name: 'draft-04 boolean exclusiveMinimum',
    schema: {
      $schema: 'http://json-schema.org/draft-04/schema#',
      minimum: 1.1,
      exclusiveMinimum: true,
    },
    valid: [1.2],
    invalid: [1.1],
  },
  {
    name: 'boolean exclusiveMaximum tolerated in 2020-12',
    schema: { maximum: 3, exclusiveMaximum: true },
    valid: [2.9],
    invalid: [3],
  },
  {
    name: 'boolean exclusiveMinimum false',
    schema: { minimum: 1.1, exclusiveMinimum: false },
    valid: [1.1],
    invalid: [1],
  },
  {
    name: 'multipleOf int',
    schema: { multipleOf: 2 },
    valid: [10, 'foo'],
    invalid: [7],
  },
  {
    name: 'multipleOf 1.5',
    schema: { multipleOf: 1.5 },
    valid: [0, 4.5],
    invalid: [35],
  },
  {
    name: 'multipleOf 0.0001',
    schema: { multipleOf: 0.0001 },
    valid: [0.0075],
    invalid: [0.00751],
  },
  {
    name: 'multipleOf 0.01',
    schema: { multipleOf: 0.01 },
    valid: [19.99, 0.07, -4.02],
    invalid: [0.075],
  },
  {
    name: 'multipleOf 0.1',
    schema: { multipleOf: 0.1 },
    valid: [0.3, 1.1],
    invalid: [0.35],
  },
  {
    name: 'multipleOf overflow',
    schema: { type: 'integer', multipleOf: 0.123456789 },
    valid: [],
    invalid: [1e308],
  },
  {
    name: 'multipleOf tiny',
    schema: { type: 'integer', multipleOf: 1e-8 },
    valid: [12391239123],
    invalid: [],
  },
];

for (const [section, groups] of Object.entries({ TYPE, ENUM_CONST, SCALARS })) {
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
