import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentType, defaultUiDir, filePath, packageRoot } from './assets.js';

describe('static files', () => {
  const root = resolve('/srv/page');

  it('maps paths inside the folder and refuses any way out', () => {
    expect(filePath(root, '/')).toBe(join(root, 'index.html'));
    expect(filePath(root, '/assets/app-1.js')).toBe(join(root, 'assets', 'app-1.js'));
    expect(filePath(root, '/a%20b.css')).toBe(join(root, 'a b.css'));
    for (const bad of [
      '/../x',
      '/%2e%2e/x',
      '/a/..%2f..%2fx',
      '/a/%2E%2E/x',
      '/..%5cx',
      '/%00',
      '/%E0%A4%A',
      '/./x',
    ]) {
      expect(filePath(root, bad), bad).toBeUndefined();
    }
  });

  it('knows the content types of a built page', () => {
    expect(contentType('index.html')).toBe('text/html; charset=utf-8');
    expect(contentType('a.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentType('a.css')).toBe('text/css; charset=utf-8');
    expect(contentType('a.svg')).toBe('image/svg+xml');
    expect(contentType('a.unknown')).toBe('application/octet-stream');
  });

  it('finds the package root named mcpkit', () => {
    const found = packageRoot();
    expect(found).toBeDefined();
    expect(defaultUiDir()).toBe(join(found!, 'dist', 'inspector'));
    expect(packageRoot('/')).toBeUndefined();
  });
});
