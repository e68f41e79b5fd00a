// The validator's contract: results and options, SchemaError cases, recursive schemas and
// hostile input.
import { describe, expect, it } from 'vitest';
import {
  builtinValidator,
  compileJsonSchema,
  formatIssues,
  SchemaError,
  type JsonSchema,
} from './index.js';

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

function nested(depth: number, wrap: (inner: unknown) => unknown): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

describe('results and options', () => {
  it('returns a shared frozen result when valid', () => {
    const validate = compileJsonSchema(TOOL);
    const first = validate({ a: 1, b: 'x' });
    expect(first).toEqual({ valid: true, issues: [] });
    expect(validate({ a: 2, b: 'y' })).toBe(first);
    expect(Object.isFrozen(first.issues)).toBe(true);
  });

  it('stops at maxIssues (default 10)', () => {
    const schema = { items: { type: 'string' } };
    const many = Array.from({ length: 30 }, (_, i) => i);
    expect(compileJsonSchema(schema)(many).issues).toHaveLength(10);
    expect(compileJsonSchema(schema, { maxIssues: 3 })(many).issues).toHaveLength(3);
    expect(() => compileJsonSchema(schema, { maxIssues: 0 })).toThrow(TypeError);
  });

  it('is reusable and independent between calls', () => {
    const validate = compileJsonSchema(TOOL);
    const bad = validate({ a: 'x', b: 'y' });
    expect(validate({ a: 1, b: 'y' }).valid).toBe(true);
    expect(bad.issues).toHaveLength(1);
  });

  it('is re-entrant', () => {
    const validate = compileJsonSchema({ properties: { a: { type: 'number' } } });
    const inner: unknown[] = [];
    const value = {
      get a() {
        inner.push(validate({ a: 'nested' }).valid);
        return 1;
      },
    };
    expect(validate(value).valid).toBe(true);
    expect(inner).toEqual([false]);
    expect(validate({ a: 'x' }).issues).toHaveLength(1);
  });

  it('builtinValidator compiles with defaults', () => {
    const validate = builtinValidator.compile({ type: 'string', format: 'email' });
    expect(validate('a@example.com').valid).toBe(true);
    expect(validate('nope').valid).toBe(false);
    expect(builtinValidator.compile(true)(1).valid).toBe(true);
  });
});

describe('SchemaError', () => {
  const cases: [string, unknown, RegExp][] = [
    ['non-object schema', 42, /must be an object or a boolean/],
    ['non-schema subschema', { properties: { a: 5 } }, /#\/properties\/a: expected a schema/],
    ['unknown $ref target', { $ref: '#/$defs/missing' }, /"#\/\$defs\/missing" points to nothing/],
    [
      'remote $ref',
      { $ref: 'http://example.com/schema.json' },
      /remote references are not supported/,
    ],
    ['metaschema $ref', { $ref: 'https://json-schema.org/draft/2020-12/schema' }, /remote/],
    ['unknown anchor', { $ref: '#nope' }, /unknown anchor "nope"/],
    [
      'bad pattern',
      { properties: { a: { pattern: '(' } } },
      /#\/properties\/a\/pattern: "pattern" is not a valid regular expression/,
    ],
    [
      'bad patternProperties key',
      { patternProperties: { '[': {} } },
      /not a valid regular expression/,
    ],
    ['unknown type', { type: 'strin' }, /unknown type strin/],
    ['negative minLength', { minLength: -1 }, /non-negative integer/],
    ['zero multipleOf', { multipleOf: 0 }, /greater than 0/],
    ['non-array enum', { enum: 'a' }, /"enum" must be an array/],
    ['non-string required', { required: [1] }, /array of strings/],
    ['empty allOf', { allOf: [] }, /non-empty array/],
    ['$ref to root', { $ref: '#' }, /infinite recursion/],
    [
      '$ref cycle',
      {
        $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } },
        $ref: '#/$defs/a',
      },
      /infinite recursion/,
    ],
    ['anyOf cycle', { anyOf: [{ type: 'string' }, { $ref: '#' }] }, /infinite recursion/],
    ['malformed fragment', { $ref: '#/%zz' }, /malformed/],
  ];
  for (const [name, schema, pattern] of cases) {
    it(name, () => {
      let error: unknown;
      try {
        compileJsonSchema(schema as JsonSchema);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(SchemaError);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).name).toBe('SchemaError');
      expect((error as Error).message).toMatch(pattern);
    });
  }

  it('locates the problem in the schema', () => {
    const error = (() => {
      try {
        compileJsonSchema({ properties: { 'a/b': { minLength: 'x' } } });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).schemaPointer).toBe('/properties/a~1b/minLength');
    expect((error as SchemaError).message).toBe(
      'invalid JSON Schema at #/properties/a~1b/minLength: "minLength" must be a number',
    );
  });

  it('rejects a schema nested 10k levels deep without a RangeError', () => {
    const schema = nested(10_000, (inner) => ({ items: inner })) as JsonSchema;
    expect(() => compileJsonSchema(schema)).toThrow(/schema nested too deeply/);
  });

  it('accepts recursion that descends into the value', () => {
    expect(() => compileJsonSchema({ items: { $ref: '#' } })).not.toThrow();
    expect(() =>
      compileJsonSchema({ properties: { a: { allOf: [{ $ref: '#' }] } } }),
    ).not.toThrow();
  });
});

describe('draft-07 and 2020-12', () => {
  const DRAFT7 = 'http://json-schema.org/draft-07/schema';
  const DRAFT2020 = 'https://json-schema.org/draft/2020-12/schema';

  it('reads $schema with or without the trailing #', () => {
    for (const $schema of [DRAFT7, `${DRAFT7}#`]) {
      const schema = {
        $schema,
        $ref: '#/definitions/a',
        minimum: 5,
        definitions: { a: { type: 'number' } },
      };
      expect(compileJsonSchema(schema)(1).valid).toBe(true); // minimum ignored next to $ref
    }
    const modern = {
      $schema: DRAFT2020,
      $ref: '#/$defs/a',
      minimum: 5,
      $defs: { a: { type: 'number' } },
    };
    expect(compileJsonSchema(modern)(1).valid).toBe(false);
  });

  it('reads items as a tuple in draft-07 and prefixItems in 2020-12', () => {
    const tuple = {
      $schema: DRAFT7,
      items: [{ type: 'string' }],
      additionalItems: false,
      prefixItems: [{ type: 'number' }],
    };
    expect(compileJsonSchema(tuple)(['a']).valid).toBe(true);
    expect(formatIssues(compileJsonSchema(tuple)(['a', 'b']).issues)).toBe(
      '(root): expected at most 1 item, received 2 items',
    );
    const modern = {
      $schema: DRAFT2020,
      prefixItems: [{ type: 'number' }],
      items: { type: 'string' },
    };
    expect(compileJsonSchema(modern)([1, 'a', 'b']).valid).toBe(true);
    expect(formatIssues(compileJsonSchema(modern)(['a']).issues)).toBe(
      '[0]: expected number, received string "a"',
    );
  });

  it('takes exclusiveMinimum as a number, or as a draft-04 boolean', () => {
    expect(compileJsonSchema({ $schema: DRAFT7, exclusiveMinimum: 0 })(0).valid).toBe(false);
    expect(compileJsonSchema({ exclusiveMinimum: 0 })(0).valid).toBe(false);
    const draft4 = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      minimum: 0,
      exclusiveMinimum: true,
    };
    expect(formatIssues(compileJsonSchema(draft4)(0).issues)).toBe(
      '(root): expected number > 0, received 0',
    );
  });

  it('resolves pointers into unknown keywords', () => {
    const schema = { $ref: '#/x-shared/name', 'x-shared': { name: { type: 'string' } } };
    expect(compileJsonSchema(schema)('a').valid).toBe(true);
    expect(compileJsonSchema(schema)(1).valid).toBe(false);
  });
});

describe('recursive schemas', () => {
  const TREE: JsonSchema = {
    $ref: '#/$defs/node',
    $defs: {
      node: {
        type: 'object',
        properties: {
          value: { type: 'number' },
          children: { type: 'array', items: { $ref: '#/$defs/node' } },
        },
        required: ['value'],
        additionalProperties: false,
      },
    },
  };

  it('validates a tree and locates a deep mistake', () => {
    const validate = compileJsonSchema(TREE);
    const leaf = (value: unknown) => ({ value });
    expect(
      validate({ value: 1, children: [leaf(2), { value: 3, children: [leaf(4)] }] }).valid,
    ).toBe(true);
    const bad = { value: 1, children: [leaf(2), { value: 3, children: [leaf(4), leaf('five')] }] };
    expect(formatIssues(validate(bad).issues)).toBe(
      'children[1].children[1].value: expected number, received string "five"',
    );
  });

  it('handles a 200-level tree', () => {
    // The innermost node is the number 1, not an object: one type issue, 200 levels down.
    const deep = nested(200, (inner) => ({ value: 1, children: [inner] }));
    const validate = compileJsonSchema(TREE);
    expect(validate({ value: 0, children: [] }).valid).toBe(true);
    expect(validate(deep).issues.map((issue) => issue.keyword)).toEqual(['type']);
  });

  it('compiles mutually recursive definitions lazily', () => {
    const schema = {
      $defs: {
        a: { type: 'object', properties: { b: { $ref: '#/$defs/b' } } },
        b: { type: 'array', items: { $ref: '#/$defs/a' } },
      },
      $ref: '#/$defs/a',
    };
    const validate = compileJsonSchema(schema);
    expect(validate({ b: [{ b: [{}] }] }).valid).toBe(true);
    expect(messages(schema, { b: [{ b: {} }] })).toBe('b[0].b: expected array, received object');
  });
});

describe('hostile input', () => {
  it('reports 10k-deep arrays instead of overflowing the stack', () => {
    const validate = compileJsonSchema({ type: ['array', 'number'], items: { $ref: '#' } });
    const result = validate(nested(10_000, (inner) => [inner]));
    expect(result.valid).toBe(false);
    expect(formatIssues(result.issues)).toBe('(root): value nested too deeply');
    expect(validate(nested(100, (inner) => [inner])).valid).toBe(true);
  });

  it('reports 10k-deep objects, through anyOf and unevaluatedProperties too', () => {
    const deep = nested(10_000, (inner) => ({ a: inner }));
    for (const schema of [
      { additionalProperties: { $ref: '#' } },
      { anyOf: [{ type: 'number' }, { properties: { a: { $ref: '#' } } }] },
      { properties: { a: { $ref: '#' } }, unevaluatedProperties: false },
    ]) {
      expect(messages(schema, deep)).toBe('(root): value nested too deeply');
    }
  });

  it('does not look inside values the schema does not constrain', () => {
    expect(compileJsonSchema(true)(nested(10_000, (inner) => [inner])).valid).toBe(true);
    expect(compileJsonSchema({ type: 'array' })(nested(10_000, (inner) => [inner])).valid).toBe(
      true,
    );
  });

  it('compares deep values for const, enum and uniqueItems without overflowing', () => {
    const deep = () => nested(10_000, (inner) => [inner]);
    expect(messages({ enum: [1, [2]] }, deep())).toBe(
      '(root): expected one of 1, [2], received array',
    );
    expect(messages({ const: deep() }, deep())).toBe('(root): value nested too deeply');
    expect(messages({ uniqueItems: true }, [deep(), deep()])).toBe(
      '(root): value nested too deeply',
    );
  });

  it('stops on cyclic (non-JSON) values', () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(messages({ items: { $ref: '#' } }, cycle)).toBe('(root): value nested too deeply');
    const other: unknown[] = [];
    other.push(other);
    expect(messages({ uniqueItems: true }, [cycle, other])).toBe('(root): value nested too deeply');
  });

  it('treats __proto__ as an ordinary key', () => {
    const proto = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    expect(messages({ type: 'object', additionalProperties: false }, proto)).toBe(
      '(root): unexpected property "__proto__"; no properties are allowed',
    );
    const schema = JSON.parse('{"properties": {"__proto__": {"type": "string"}}}') as JsonSchema;
    expect(messages(schema, proto)).toBe('__proto__: expected string, received object');
    expect(messages({ required: ['__proto__', 'constructor'] }, {})).toBe(
      '(root): missing required property "__proto__"\n(root): missing required property "constructor"',
    );
    expect(messages({ maxProperties: 0 }, proto)).toBe(
      '(root): expected object with at most 0 properties, received 1',
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('accepts non-JSON values without throwing', () => {
    const validate = compileJsonSchema({ type: 'object', properties: { f: { type: 'string' } } });
    expect(validate({ f: () => 1 }).issues[0]?.message).toBe('expected string, received function');
    expect(validate(new Map()).valid).toBe(true);
    expect(compileJsonSchema({ type: 'number' })(Number.NaN).valid).toBe(true);
    expect(compileJsonSchema({ type: 'integer' })(Number.POSITIVE_INFINITY).valid).toBe(false);
    expect(compileJsonSchema({ type: 'number' })(10n).issues[0]?.message).toBe(
      'expected number, received bigint 10',
    );
  });
});
