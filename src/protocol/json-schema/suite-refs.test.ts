// JSON-Schema-Test-Suite-style cases (recalled, not fetched) for $ref, $id, $anchor and the drafts.
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

const REFS: Group[] = [
  {
    name: 'root pointer ref',
    schema: { properties: { foo: { $ref: '#' } }, additionalProperties: false },
    valid: [{ foo: false }, { foo: { foo: false } }],
    invalid: [{ bar: false }, { foo: { bar: false } }],
  },
  {
    name: 'relative pointer ref to object',
    schema: { properties: { foo: { type: 'integer' }, bar: { $ref: '#/properties/foo' } } },
    valid: [{ bar: 3 }],
    invalid: [{ bar: true }],
  },
  {
    name: 'relative pointer ref to array',
    schema: { prefixItems: [{ type: 'integer' }, { $ref: '#/prefixItems/0' }] },
    valid: [[1, 2]],
    invalid: [[1, 'foo']],
  },
  {
    name: 'escaped pointer ref',
    schema: {
      $defs: {
        'tilde~field': { type: 'integer' },
        'slash/field': { type: 'integer' },
        'percent%field': { type: 'integer' },
      },
      properties: {
        tilde: { $ref: '#/$defs/tilde~0field' },
        slash: { $ref: '#/$defs/slash~1field' },
        percent: { $ref: '#/$defs/percent%25field' },
      },
    },
    valid: [{ tilde: 1, slash: 2, percent: 3 }],
    invalid: [{ slash: 'aoeu' }, { tilde: 'aoeu' }, { percent: 'aoeu' }],
  },
  {
    name: 'nested refs',
    schema: {
      $defs: { a: { type: 'integer' }, b: { $ref: '#/$defs/a' }, c: { $ref: '#/$defs/b' } },
      $ref: '#/$defs/c',
    },
    valid: [5],
    invalid: ['a'],
  },
  {
    name: '2020-12 ref siblings apply',
    schema: {
      $defs: { reffed: { type: 'array' } },
      properties: { foo: { $ref: '#/$defs/reffed', maxItems: 2 } },
    },
    valid: [{ foo: [] }],
    invalid: [{ foo: [1, 2, 3] }, { foo: 'string' }],
  },
  {
    name: 'draft-07 ref siblings ignored',
    schema: {
      $schema: DRAFT7,
      definitions: { reffed: { type: 'array' } },
      properties: { foo: { $ref: '#/definitions/reffed', maxItems: 2 } },
    },
    valid: [{ foo: [1, 2, 3] }],
    invalid: [{ foo: 'string' }],
  },
  {
    name: 'ref to true',
    schema: { $ref: '#/$defs/bool', $defs: { bool: true } },
    valid: ['foo'],
    invalid: [],
  },
  {
    name: 'ref to false',
    schema: { $ref: '#/$defs/bool', $defs: { bool: false } },
    valid: [],
    invalid: ['foo'],
  },
  {
    name: 'recursive tree via $id-relative refs',
    schema: {
      $id: 'http://localhost:1234/tree',
      type: 'object',
      properties: { meta: { type: 'string' }, nodes: { type: 'array', items: { $ref: 'node' } } },
      required: ['meta', 'nodes'],
      $defs: {
        node: {
          $id: 'http://localhost:1234/node',
          type: 'object',
          properties: { value: { type: 'number' }, subtree: { $ref: 'tree' } },
          required: ['value'],
        },
      },
    },
    valid: [
      {
        meta: 'root',
        nodes: [
          { value: 1, subtree: { meta: 'child', nodes: [{ value: 1.1 }, { value: 1.2 }] } },
          { value: 2 },
        ],
      },
    ],
    invalid: [
      {
        meta: 'root',
        nodes: [{ value: 1, subtree: { meta: 'child', nodes: [{ value: 'string is invalid' }] } }],
      },
    ],
  },
  {
    name: '$anchor',
    schema: { $ref: '#foo', $defs: { A: { $anchor: 'foo', type: 'integer' } } },
    valid: [1],
    invalid: ['a'],
  },
  {
    name: 'location-independent identifier with base URI change',
    schema: {
      $ref: 'http://localhost:1234/bar#foo',
      $defs: { A: { $id: 'http://localhost:1234/bar', $anchor: 'foo', type: 'integer' } },
    },
    valid: [1],
    invalid: ['a'],
  },
  {
    name: 'draft-07 $id anchor',
    schema: {
      $schema: DRAFT7,
      allOf: [{ $ref: '#foo' }],
      definitions: { A: { $id: '#foo', type: 'integer' } },
    },
    valid: [1],
    invalid: ['a'],
  },
  {
    name: '$ref resolves against the $id of its own schema',
    schema: {
      $id: 'http://example.com/a.json',
      $defs: {
        x: {
          $id: 'http://example.com/b/c.json',
          not: { $defs: { y: { $id: 'd.json', type: 'number' } } },
        },
      },
      allOf: [{ $ref: 'http://example.com/b/d.json' }],
    },
    valid: [1],
    invalid: ['a'],
  },
  {
    name: 'naive $ref replacement is wrong',
    schema: { $defs: { a_string: { type: 'string' } }, enum: [{ $ref: '#/$defs/a_string' }] },
    valid: [{ $ref: '#/$defs/a_string' }],
    invalid: ['this is a string'],
  },
  {
    name: 'property named $ref',
    schema: { properties: { $ref: { type: 'string' } } },
    valid: [{ $ref: 'a' }],
    invalid: [{ $ref: 2 }],
  },
  {
    name: 'ref with a quote',
    schema: {
      properties: { 'foo"bar': { $ref: '#/$defs/foo%22bar' } },
      $defs: { 'foo"bar': { type: 'number' } },
    },
    valid: [{ 'foo"bar': 1 }],
    invalid: [{ 'foo"bar': '1' }],
  },
  {
    name: '$id inside an enum is not an identifier',
    schema: {
      $defs: {
        id_in_enum: {
          enum: [{ $id: 'https://localhost:1234/id/my_identifier.json', type: 'null' }],
        },
        real_id_in_schema: { $id: 'https://localhost:1234/id/my_identifier.json', type: 'string' },
      },
      anyOf: [
        { $ref: '#/$defs/id_in_enum' },
        { $ref: 'https://localhost:1234/id/my_identifier.json' },
      ],
    },
    valid: [{ $id: 'https://localhost:1234/id/my_identifier.json', type: 'null' }, 'a string'],
    invalid: [1],
  },
  {
    name: 'draft-07 $ref sibling $id does not change the base',
    schema: {
      $schema: DRAFT7,
      $id: 'http://localhost:1234/sibling_id/base/',
      definitions: {
        foo: { $id: 'http://localhost:1234/sibling_id/foo.json', type: 'string' },
        base_foo: { $comment: 'resolves to base/foo.json', $id: 'foo.json', type: 'number' },
      },
      allOf: [
        {
          $comment: '$ref resolves against the base, not the sibling $id',
          $id: 'http://localhost:1234/sibling_id/',
          $ref: 'foo.json',
        },
      ],
    },
    valid: [5],
    invalid: ['a'],
  },
];

for (const [section, groups] of Object.entries({ REFS })) {
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
