import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFINITION_FIELDS } from './fields.js';
import { PROTOCOL_REVISIONS } from './version.js';

describe('DEFINITION_FIELDS', () => {
  for (const revision of PROTOCOL_REVISIONS) {
    it(`matches the properties of spec/${revision}/schema.json`, () => {
      const schema = JSON.parse(
        readFileSync(new URL(`../../spec/${revision}/schema.json`, import.meta.url), 'utf8'),
      );
      const defs = (schema.$defs ?? schema.definitions) as Record<string, { properties?: object }>;
      for (const [kind, fields] of Object.entries(DEFINITION_FIELDS[revision])) {
        expect([...fields].sort(), `${revision} ${kind}`).toEqual(
          Object.keys(defs[kind]?.properties ?? {}).sort(),
        );
      }
    });
  }
});
