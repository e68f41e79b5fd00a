import { describe, expect, it } from 'vitest';
import { expandTemplate, templateVariables } from './uri-template';

describe('URI templates', () => {
  it('lists the variables, each once', () => {
    expect(templateVariables('demo://resource/dynamic/text/{id}')).toEqual(['id']);
    expect(templateVariables('file:///{+path}{?q,lang}{&q}')).toEqual(['path', 'q', 'lang']);
  });

  it('expands simple, reserved and query expressions', () => {
    expect(expandTemplate('demo://x/{id}', { id: 'a b/c' })).toBe('demo://x/a%20b%2Fc');
    expect(expandTemplate('file:///{+path}', { path: 'a b/c' })).toBe('file:///a%20b/c');
    expect(expandTemplate('s://x{?q,lang}', { q: 'cats', lang: '' })).toBe('s://x?q=cats');
    expect(expandTemplate('s://x{/a,b}', { a: '1', b: '2' })).toBe('s://x/1/2');
    expect(expandTemplate('s://x/{id}', {})).toBe('s://x/');
  });
});
