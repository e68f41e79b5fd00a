// Generation on a small OpenAPI 3.1 document of our own and on GitHub's REST description
// (@octokit/openapi, ~1,000 operations): names valid and unique, every schema valid JSON Schema
// (2020-12 meta-schema, and compiled by the built-in validator), markers, styles, annotations.
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../protocol/index.js';
import { ESTIMATE, serializeTool } from '../catalogue/index.js';
import type { Tool } from '../client/index.js';
import { generateTools } from './generate.js';
import { loadDocument } from './load.js';
import { TOOL_NAME } from './names.js';
import { planTools } from './server.js';
import type { OpenApiDocument, ToolPlan } from './types.js';

const PETSTORE = fileURLToPath(new URL('../../test/openapi/petstore.yaml', import.meta.url));
const GITHUB = fileURLToPath(
  new URL('../../node_modules/@octokit/openapi/generated/api.github.com.json', import.meta.url),
);

const ajv = new Ajv2020.default({ strict: false, validateFormats: false });

function expectValidTools(tools: readonly ToolPlan[]): void {
  const names = new Set<string>();
  for (const tool of tools) {
    expect(tool.name).toMatch(TOOL_NAME);
    expect(names.has(tool.name), tool.name).toBe(false);
    names.add(tool.name);
    for (const schema of [tool.inputSchema, tool.outputSchema]) {
      if (schema === undefined) continue;
      expect(schema['type'], tool.name).toBe('object');
      expect(ajv.validateSchema(schema), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
      expect(() => compileJsonSchema(schema)).not.toThrow();
      expect(() => JSON.stringify(schema)).not.toThrow();
    }
  }
}

const byName = (tools: readonly ToolPlan[], name: string): ToolPlan => {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
};

describe('a small OpenAPI 3.1 document', () => {
  let document: OpenApiDocument;
  beforeAll(async () => {
    document = await loadDocument(PETSTORE);
  });

  it('makes one valid tool per operation', () => {
    const { tools, skipped } = generateTools(document);
    expect(skipped).toEqual([]);
    expect(tools).toHaveLength(14);
    expectValidTools(tools);
    expect(tools.map((t) => t.name)).toContain('get_matrix_coords');
  });

  it('merges parameters and the body with markers, and keeps how to write them', () => {
    const { tools } = generateTools(document);
    const list = byName(tools, 'listPets');
    const properties = list.inputSchema['properties'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties)).toEqual(['limit', 'tags', 'X-Request-Id']);
    expect(properties['limit']).toMatchObject({ type: 'integer', maximum: 100, 'x-in': 'query' });
    expect(properties['X-Request-Id']).toMatchObject({ 'x-in': 'header' });
    expect(list.parameters.find((p) => p.key === 'tags')).toMatchObject({
      style: 'form',
      explode: true,
    });
    const search = byName(tools, 'search');
    expect(search.parameters.map((p) => [p.key, p.in, p.style, p.explode])).toEqual([
      ['filter', 'query', 'deepObject', true],
      ['ids', 'query', 'pipeDelimited', false],
      ['session', 'cookie', 'form', true],
    ]);
    const create = byName(tools, 'createPet');
    expect(create.inputSchema['required']).toEqual(['body']);
    const body = (create.inputSchema['properties'] as Record<string, Record<string, unknown>>)[
      'body'
    ];
    expect(body?.['x-in']).toBe('body');
    // readOnly fields leave the input, writeOnly ones the output
    expect(Object.keys(body?.['properties'] as object)).toEqual([
      'name',
      'species',
      'tag',
      'password',
    ]);
    expect(Object.keys(create.outputSchema?.['properties'] as object)).toEqual([
      'id',
      'name',
      'species',
      'tag',
    ]);
    expect(byName(tools, 'uploadPhoto').body).toEqual({
      key: 'body',
      mediaType: 'multipart/form-data',
      files: ['file', 'attachments'],
    });
  });

  it('trims descriptions to the budget, wraps non-object outputs, cuts cycles', () => {
    const { tools } = generateTools(document, { descriptionChars: 120 });
    const list = byName(tools, 'listPets');
    expect(list.description.length).toBeLessThanOrEqual(120);
    expect(list.description).toMatch(/^List pets\. Lists the pets of the store, newest first\./);
    expect(list.description).not.toMatch(/https?:|\*\*/);
    expect(list.output).toEqual({ wrapped: true });
    expect(list.outputSchema?.['required']).toEqual(['result']);
    const tree = generateTools(document, { outputDepth: 6 }).tools.find(
      (t) => t.name === 'getTree',
    );
    expect(JSON.stringify(tree?.outputSchema)).toContain('"children"');
  });

  it('makes input schemas strict and described, output schemas lean and bounded', () => {
    const { tools } = generateTools(document);
    const list = byName(tools, 'listPets');
    // every input object says what it requires (an empty list too) and refuses strays
    const search = byName(tools, 'search');
    expect(search.inputSchema).toMatchObject({ required: [], additionalProperties: false });
    const filter = (search.inputSchema['properties'] as Record<string, Record<string, unknown>>)[
      'filter'
    ];
    expect(filter).toMatchObject({ required: [], additionalProperties: false });
    // a property or parameter the document leaves undescribed says what it is
    const undescribed: string[] = [];
    const walk = (schema: unknown, where: string): void => {
      if (typeof schema !== 'object' || schema === null) return;
      const properties = (schema as Record<string, unknown>)['properties'];
      if (typeof properties !== 'object' || properties === null) return;
      for (const [name, sub] of Object.entries(properties)) {
        if (typeof (sub as Record<string, unknown>)['description'] !== 'string')
          undescribed.push(`${where}.${name}`);
        walk(sub, `${where}.${name}`);
      }
    };
    for (const tool of tools) walk(tool.inputSchema, tool.name);
    expect(undescribed).toEqual([]);
    // outputs: names and types, no constraints or prose; a list shows its items' fields
    const keys = new Set<string>();
    const collect = (schema: unknown): void => {
      if (typeof schema !== 'object' || schema === null) return;
      for (const [key, value] of Object.entries(schema)) {
        keys.add(key);
        if (key === 'properties') Object.values(value as object).forEach(collect);
        else if (key === 'items') collect(value);
        else if (Array.isArray(value) && key !== 'type' && key !== 'required')
          value.forEach(collect);
      }
    };
    for (const tool of tools) if (tool.outputSchema !== undefined) collect(tool.outputSchema);
    for (const key of keys) {
      expect(['type', 'properties', 'items', 'anyOf', 'oneOf', 'allOf', 'required']).toContain(key);
    }
    const items = (list.outputSchema?.['properties'] as Record<string, Record<string, unknown>>)[
      'result'
    ]?.['items'] as Record<string, unknown>;
    expect(Object.keys(items['properties'] as object)).toContain('name');
    // an output schema past outputChars is left out (the answer still comes as JSON text)
    const small = generateTools(document, { outputChars: 40 }).tools;
    expect(byName(small, 'getPet').outputSchema).toBeUndefined();
    expect(byName(small, 'getPet').output).toBeUndefined();
  });

  it('tells near names apart and stretches a description too short to choose by', () => {
    const near: OpenApiDocument = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/issues/{number}/labels': {
          put: { operationId: 'issues/set-labels', summary: 'Replace the labels of an issue' },
        },
        '/labels/{name}': {
          get: { operationId: 'issues/get-label', summary: 'Get a label' },
          delete: {
            operationId: 'issues/delete-label',
            parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
          },
        },
      },
    };
    const { tools } = generateTools(near);
    expect(tools.map((t) => t.name)).toEqual([
      'issues_set-labels',
      'issues_get-label_by_name',
      'issues_delete-label',
    ]);
    // names do not depend on which operations were picked
    const alone = planTools(near, { include: { operations: ['issues/get-label'] } }).tools;
    expect(alone.map((t) => t.name)).toEqual(['issues_get-label_by_name']);
    expect(byName(tools, 'issues_get-label_by_name').description).toBe(
      'Get a label (GET /labels/{name}).',
    );
    expect(byName(tools, 'issues_delete-label').description).toBe('Calls DELETE /labels/{name}.');
    const name = (
      byName(tools, 'issues_delete-label').inputSchema['properties'] as Record<
        string,
        Record<string, unknown>
      >
    )['name'];
    expect(name?.['description']).toBe('The name in …/labels/{name}.');
  });

  it('takes annotations from the method', () => {
    const { tools } = generateTools(document);
    expect(byName(tools, 'getPet').annotations.readOnlyHint).toBe(true);
    expect(byName(tools, 'deletePet').annotations).toMatchObject({
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName(tools, 'updatePet').annotations.idempotentHint).toBe(true);
    expect(byName(tools, 'createPet').annotations.readOnlyHint).toBe(false);
  });

  it('curates: include, exclude, read-only, rename, re-describe, fixed values', () => {
    const curated = planTools(document, {
      include: { tags: ['pets'] },
      exclude: { operations: ['uploadPhoto', 'search'] },
      readOnly: true,
      tools: {
        getPet: { name: 'pet', description: 'One pet by its id.' },
        listPets: { fixed: { limit: 10 } },
      },
    }).tools;
    expect(curated.map((t) => t.name)).toEqual(['listPets', 'pet', 'getPhoto']);
    expect(byName(curated, 'pet').description).toBe('One pet by its id.');
    const list = byName(curated, 'listPets');
    expect(Object.keys(list.inputSchema['properties'] as object)).not.toContain('limit');
    expect(list.fixed).toEqual({ limit: 10 });
    expect(
      planTools(document, { include: { paths: ['/pets/**'], methods: ['delete'] } }).tools.map(
        (t) => t.name,
      ),
    ).toEqual(['deletePet']);
    expect(() => planTools(document, { tools: { nope: { name: 'x' } } })).toThrow(/nope/);
    expect(() => planTools(document, { tools: { getPet: { name: 'a b' } } })).toThrow(/valid/);
    expect(() => planTools(document, { tools: { getPet: { fixed: { zz: 1 } } } })).toThrow(/zz/);
  });

  it('converts Swagger 2.0, refuses invalid documents with the reason', async () => {
    const converted = await loadDocument({
      swagger: '2.0',
      info: { title: 't', version: '1' },
      paths: {},
    });
    expect(converted.openapi).toMatch(/^3\.0\./);
    await expect(
      loadDocument({ swagger: '2.0', info: { title: 't' }, paths: { '/x': { get: {} } } }),
    ).rejects.toThrow(/not a valid OpenAPI document/);
    await expect(loadDocument({ openapi: '3.1.0', paths: {} })).rejects.toThrow(
      /not a valid OpenAPI document/,
    );
  });
});

describe("GitHub's REST API description", () => {
  let document: OpenApiDocument;
  beforeAll(async () => {
    document = await loadDocument(GITHUB, { validate: false });
  }, 180_000);

  it('generates a valid, uniquely named tool for every operation', () => {
    const { tools, skipped } = generateTools(document);
    expect(skipped).toEqual([]);
    expect(tools.length).toBeGreaterThan(1000);
    expectValidTools(tools);
  }, 120_000);

  it('curates to the issues and pulls endpoints, far cheaper than the whole API', () => {
    const cost = (tools: readonly ToolPlan[]): number =>
      tools.reduce((sum, tool) => sum + ESTIMATE.count(serializeTool(tool as unknown as Tool)), 0);
    const all = generateTools(document).tools;
    const curated = planTools(document, { include: { tags: ['issues', 'pulls'] } }).tools;
    expect(curated.length).toBeGreaterThan(50);
    expect(curated.length).toBeLessThan(150);
    expect(
      curated.every((t) => t.operation.tags.some((tag) => tag === 'issues' || tag === 'pulls')),
    ).toBe(true);
    expect(cost(curated) * 5).toBeLessThan(cost(all));
    const list = byName(curated, 'issues_list-for-repo');
    expect(list.operation).toMatchObject({ method: 'GET', path: '/repos/{owner}/{repo}/issues' });
    expect(list.inputSchema['required']).toEqual(['owner', 'repo']);
  }, 120_000);
});
