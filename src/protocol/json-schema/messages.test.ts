// Golden message text for the common tool-call mistakes and for schemas MCP servers publish: the
// text a server returns to the model as an isError tool result (SEP-1303).
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, formatIssues, type JsonSchema } from './index.js';

const messages = (schema: JsonSchema | boolean, value: unknown): string =>
  formatIssues(compileJsonSchema(schema)(value).issues);

const TOOL: JsonSchema = {
  type: 'object',
  properties: {
    a: { type: 'number' },
    b: { type: 'string' },
    unit: { enum: ['c', 'f'] },
    items: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  },
  required: ['a', 'b'],
  additionalProperties: false,
};

describe('messages for tool arguments', () => {
  it('names the path, the expectation and the received value', () => {
    expect(messages(TOOL, { a: 'oops', b: 'x' })).toBe(
      'a: expected number, received string "oops"',
    );
    expect(messages(TOOL, { a: 1 })).toBe('(root): missing required property "b"');
    expect(messages(TOOL, { a: 1, b: 'x', unit: 'k' })).toBe(
      'unit: expected one of "c", "f", received "k"',
    );
    expect(messages(TOOL, { a: 1, b: 'x', extra: true })).toBe(
      '(root): unexpected property "extra"; allowed: "a", "b", "unit", "items"',
    );
    expect(messages(TOOL, 'str')).toBe('(root): expected object, received string "str"');
  });

  it('renders nested paths as items[2].name, one line per issue', () => {
    const value = { a: 1, b: 'x', items: [{ name: 'a' }, { name: 'b' }, { name: 5 }, {}] };
    expect(messages(TOOL, value)).toBe(
      'items[2].name: expected string, received number 5\nitems[3]: missing required property "name"',
    );
    expect(messages(TOOL, {})).toBe(
      '(root): missing required property "a"\n(root): missing required property "b"',
    );
  });

  it('fills every issue field', () => {
    const { valid, issues } = compileJsonSchema(TOOL)({ a: 1, b: 'x', items: [{ name: 5 }] });
    expect(valid).toBe(false);
    expect(issues).toEqual([
      {
        path: ['items', 0, 'name'],
        pointer: '/items/0/name',
        keyword: 'type',
        message: 'expected string, received number 5',
        expected: 'string',
        received: 'number 5',
      },
    ]);
  });

  it('quotes awkward keys and escapes pointers', () => {
    const schema = { properties: { 'a b': { properties: { 'x/y': { type: 'string' } } } } };
    const [issue] = compileJsonSchema(schema)({ 'a b': { 'x/y': 1 } }).issues;
    expect(issue?.pointer).toBe('/a b/x~1y');
    expect(formatIssues(compileJsonSchema(schema)({ 'a b': { 'x/y': 1 } }).issues)).toBe(
      '["a b"]["x/y"]: expected string, received number 1',
    );
    expect(messages({ items: { type: 'null' } }, [null, 0])).toBe(
      '[1]: expected null, received number 0',
    );
  });

  it('shows received values short', () => {
    const long = 'x'.repeat(60);
    expect(messages({ type: 'number' }, long)).toBe(
      `(root): expected number, received string "${'x'.repeat(40)}…"`,
    );
    expect(messages({ type: 'string' }, { a: 1 })).toBe('(root): expected string, received object');
    expect(messages({ type: 'string' }, [1])).toBe('(root): expected string, received array');
    expect(messages({ type: 'string' }, null)).toBe('(root): expected string, received null');
    expect(messages({ type: 'object' }, undefined)).toBe(
      '(root): expected object, received undefined',
    );
    expect(messages({ type: 'integer' }, 1.5)).toBe(
      '(root): expected integer, received number 1.5',
    );
  });

  it('explains string, number, array and object keywords', () => {
    const cases: [JsonSchema, unknown, string][] = [
      [{ minLength: 3 }, 'ab', 'expected string of at least 3 characters, received 2 characters'],
      [
        { pattern: '^[a-z]+$' },
        'ABC',
        'expected string matching pattern "^[a-z]+$", received "ABC"',
      ],
      [{ minimum: 5 }, 3, 'expected number >= 5, received 3'],
      [{ exclusiveMaximum: 5 }, 5, 'expected number < 5, received 5'],
      [{ multipleOf: 0.5 }, 0.3, 'expected multiple of 0.5, received 0.3'],
      [{ maxItems: 1 }, [1, 2], 'expected array with at most 1 item, received 2 items'],
      [{ uniqueItems: true }, [1, 2, 1], 'expected unique items, but items 0 and 2 are equal'],
      [
        { contains: { type: 'number' } },
        ['a'],
        'expected at least 1 item matching {"type":"number"}, received 0',
      ],
      [{ minProperties: 2 }, { a: 1 }, 'expected object with at least 2 properties, received 1'],
      [
        { dependentRequired: { a: ['b'] } },
        { a: 1 },
        'missing property "b", required when "a" is present',
      ],
      [
        { propertyNames: { pattern: '^[a-z]+$' } },
        { Abc: 1 },
        'invalid property name "Abc": expected string matching pattern "^[a-z]+$", received "Abc"',
      ],
      [{ prefixItems: [{}], items: false }, [1, 2], 'expected at most 1 item, received 2 items'],
      [{ const: 'x' }, 'y', 'expected "x", received "y"'],
      [{ not: { type: 'string' } }, 'x', 'expected a value not matching {"type":"string"}'],
      [
        { properties: { a: {} }, unevaluatedProperties: false },
        { a: 1, z: 2 },
        'unexpected property "z"',
      ],
    ];
    for (const [schema, value, message] of cases) {
      expect(compileJsonSchema(schema)(value).issues.map((issue) => issue.message)).toEqual([
        message,
      ]);
    }
  });

  it('lists a long enum up to 20 values', () => {
    const values = Array.from({ length: 30 }, (_, i) => `v${i}`);
    expect(messages({ enum: values }, 'x')).toMatch(/"v19", … \(30 values\), received "x"$/);
  });

  it('joins the expectations of alternatives', () => {
    expect(messages({ anyOf: [{ type: 'string' }, { type: 'null' }] }, 5)).toBe(
      '(root): expected string or null, received number 5',
    );
    expect(messages({ type: ['string', 'null'] }, 5)).toBe(
      '(root): expected string or null, received number 5',
    );
    expect(messages({ anyOf: [{ const: 'a' }, { const: 'b' }] }, 'c')).toBe(
      '(root): expected "a" or "b", received "c"',
    );
  });

  it('follows the branch a value aims at', () => {
    const nullable = {
      anyOf: [{ type: 'object', properties: { x: { type: 'string' } } }, { type: 'null' }],
    };
    expect(messages(nullable, { x: 1 })).toBe('x: expected string, received number 1');
    const shape = {
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'circle' }, r: { type: 'number' } },
          required: ['kind', 'r'],
        },
        {
          type: 'object',
          properties: { kind: { const: 'square' }, side: { type: 'number' } },
          required: ['kind', 'side'],
        },
      ],
    };
    expect(messages(shape, { kind: 'circle', r: 'big' })).toBe(
      'r: expected number, received string "big"',
    );
    expect(messages(shape, { kind: 'triangle' })).toBe(
      'kind: expected "circle" or "square", received "triangle"',
    );
  });

  it('sums up alternatives it cannot choose between', () => {
    const schema = {
      anyOf: [
        { type: 'object', required: ['a'] },
        { type: 'object', required: ['b'] },
      ],
    };
    expect(messages(schema, {})).toBe(
      '(root): expected a value matching at least one of 2 alternatives: (1) missing required property "a"; (2) missing required property "b"',
    );
    expect(messages({ oneOf: [{ type: 'integer' }, { minimum: 2 }] }, 3)).toBe(
      '(root): expected a value matching exactly one alternative, but alternatives 1 and 2 both match',
    );
  });

  it('reports then/else failures directly', () => {
    const schema = { if: { properties: { k: { const: 'a' } } }, then: { required: ['y'] } };
    expect(messages(schema, { k: 'a' })).toBe('(root): missing required property "y"');
    expect(messages(schema, { k: 'b' })).toBe('');
  });

  it('reports one type issue rather than every keyword that cannot apply', () => {
    expect(messages({ type: 'string', minLength: 2, enum: ['ab'] }, 5)).toBe(
      '(root): expected string, received number 5',
    );
  });
});

describe('schemas MCP servers publish', () => {
  it('validates the conformance suite 2020-12 tool schema', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    };
    const validate = compileJsonSchema(schema);
    expect(validate({ name: 'a', address: { street: 's', city: 'c' } }).valid).toBe(true);
    expect(formatIssues(validate({ address: { city: 7 } }).issues)).toBe(
      'address.city: expected string, received number 7',
    );
  });

  it('validates zod-to-json-schema draft-07 output ($ref next to definitions)', () => {
    const schema = {
      $ref: '#/definitions/Args',
      definitions: {
        Args: {
          type: 'object',
          properties: { city: { type: 'string' }, days: { type: 'integer', exclusiveMinimum: 0 } },
          required: ['city'],
          additionalProperties: false,
        },
      },
      $schema: 'http://json-schema.org/draft-07/schema#',
    };
    const validate = compileJsonSchema(schema);
    expect(validate({ city: 'Oslo', days: 3 }).valid).toBe(true);
    expect(formatIssues(validate({ city: 'Oslo', days: 0 }).issues)).toBe(
      'days: expected number > 0, received 0',
    );
  });

  it('validates pydantic-style 2020-12 output (nullable anyOf, prefixItems, $defs)', () => {
    const schema = {
      type: 'object',
      properties: {
        point: {
          type: 'array',
          prefixItems: [{ type: 'number' }, { type: 'number' }],
          minItems: 2,
          maxItems: 2,
        },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
        tags: { type: 'array', items: { $ref: '#/$defs/Tag' } },
      },
      required: ['point'],
      $defs: { Tag: { type: 'string', enum: ['a', 'b'] } },
    };
    const validate = compileJsonSchema(schema);
    expect(validate({ point: [1, 2], note: null, tags: ['a'] }).valid).toBe(true);
    expect(formatIssues(validate({ point: [1, 'x'], note: 3, tags: ['c'] }).issues)).toBe(
      [
        'point[1]: expected number, received string "x"',
        'note: expected string or null, received number 3',
        'tags[0]: expected one of "a", "b", received "c"',
      ].join('\n'),
    );
  });
});
