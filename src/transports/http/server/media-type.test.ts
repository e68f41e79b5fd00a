import { describe, expect, it } from 'vitest';
import { checkJsonContentType, parseAccept, parseMediaType } from './media-type.js';

describe('media types', () => {
  it('parses a type with parameters, case-insensitively', () => {
    expect(parseMediaType('Application/JSON ; Charset="utf-8"')).toEqual({
      essence: 'application/json',
      params: { charset: 'utf-8' },
    });
    expect(parseMediaType('json')).toBeUndefined();
    expect(parseMediaType('a/b/c')).toBeUndefined();
  });

  it('accepts JSON in UTF-8 only, never by substring', () => {
    expect(checkJsonContentType('application/json')).toBeUndefined();
    expect(checkJsonContentType('application/json;charset=UTF-8')).toBeUndefined();
    for (const bad of [
      undefined,
      'application/jsonx',
      'text/json',
      'application/json; charset=latin1',
      'x-application/json',
    ]) {
      expect(checkJsonContentType(bad), String(bad)).toBeTypeOf('string');
    }
  });

  it('reads Accept with wildcards, quality values and specificity', () => {
    expect(parseAccept(undefined)).toEqual({ json: true, sse: true });
    expect(parseAccept('*/*')).toEqual({ json: true, sse: true });
    expect(parseAccept('application/json')).toEqual({ json: true, sse: false });
    expect(parseAccept('text/*')).toEqual({ json: false, sse: true });
    expect(parseAccept('text/event-stream, application/json')).toEqual({ json: true, sse: true });
    expect(parseAccept('*/*, text/event-stream;q=0')).toEqual({ json: true, sse: false });
    expect(parseAccept('text/html')).toEqual({ json: false, sse: false });
  });

  it('answers each value for itself when values alternate (the last one is remembered)', () => {
    const values = ['application/json', 'text/event-stream', '', '  ', 'application/json'];
    const expected = [
      { json: true, sse: false },
      { json: false, sse: true },
      { json: true, sse: true },
      { json: true, sse: true },
      { json: true, sse: false },
    ];
    for (let round = 0; round < 2; round++) {
      values.forEach((value, i) => {
        expect(parseAccept(value)).toEqual(expected[i]);
      });
    }
  });
});
