import { describe, expect, it } from 'vitest';
import { UriTemplate, isUriTemplate } from './index.js';
import type { UriTemplateVariables } from './index.js';

// RFC 6570 section 1.2: the variables of the level examples.
const LEVEL_VARS: UriTemplateVariables = {
  var: 'value',
  hello: 'Hello World!',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  empty: '',
  undef: undefined,
  x: '1024',
  y: '768',
};

// RFC 6570 section 1.2, levels 1-4.
const LEVEL_CASES: [level: number, template: string, expected: string][] = [
  [1, '{var}', 'value'],
  [1, '{hello}', 'Hello%20World%21'],
  [2, '{+var}', 'value'],
  [2, '{+hello}', 'Hello%20World!'],
  [2, '{+path}/here', '/foo/bar/here'],
  [2, 'here?ref={+path}', 'here?ref=/foo/bar'],
  [2, 'X{#var}', 'X#value'],
  [2, 'X{#hello}', 'X#Hello%20World!'],
  [3, 'map?{x,y}', 'map?1024,768'],
  [3, '{x,hello,y}', '1024,Hello%20World%21,768'],
  [3, '{+x,hello,y}', '1024,Hello%20World!,768'],
  [3, '{+path,x}/here', '/foo/bar,1024/here'],
  [3, '{#x,hello,y}', '#1024,Hello%20World!,768'],
  [3, '{#path,x}/here', '#/foo/bar,1024/here'],
  [3, 'X{.var}', 'X.value'],
  [3, 'X{.x,y}', 'X.1024.768'],
  [3, '{/var}', '/value'],
  [3, '{/var,x}/here', '/value/1024/here'],
  [3, '{;x,y}', ';x=1024;y=768'],
  [3, '{;x,y,empty}', ';x=1024;y=768;empty'],
  [3, '{?x,y}', '?x=1024&y=768'],
  [3, '{?x,y,empty}', '?x=1024&y=768&empty='],
  [3, '?fixed=yes{&x}', '?fixed=yes&x=1024'],
  [3, '{&x,y,empty}', '&x=1024&y=768&empty='],
  [4, '{var:3}', 'val'],
  [4, '{var:30}', 'value'],
  [4, '{list}', 'red,green,blue'],
  [4, '{list*}', 'red,green,blue'],
  [4, '{keys}', 'semi,%3B,dot,.,comma,%2C'],
  [4, '{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  [4, '{+path:6}/here', '/foo/b/here'],
  [4, '{+list}', 'red,green,blue'],
  [4, '{+list*}', 'red,green,blue'],
  [4, '{+keys}', 'semi,;,dot,.,comma,,'],
  [4, '{+keys*}', 'semi=;,dot=.,comma=,'],
  [4, '{#path:6}/here', '#/foo/b/here'],
  [4, '{#list}', '#red,green,blue'],
  [4, '{#list*}', '#red,green,blue'],
  [4, '{#keys}', '#semi,;,dot,.,comma,,'],
  [4, '{#keys*}', '#semi=;,dot=.,comma=,'],
  [4, 'X{.var:3}', 'X.val'],
  [4, 'X{.list}', 'X.red,green,blue'],
  [4, 'X{.list*}', 'X.red.green.blue'],
  [4, 'X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  [4, 'X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  [4, '{/var:1,var}', '/v/value'],
  [4, '{/list}', '/red,green,blue'],
  [4, '{/list*}', '/red/green/blue'],
  [4, '{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  [4, '{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  [4, '{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  [4, '{;hello:5}', ';hello=Hello'],
  [4, '{;list}', ';list=red,green,blue'],
  [4, '{;list*}', ';list=red;list=green;list=blue'],
  [4, '{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  [4, '{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  [4, '{?var:3}', '?var=val'],
  [4, '{?list}', '?list=red,green,blue'],
  [4, '{?list*}', '?list=red&list=green&list=blue'],
  [4, '{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  [4, '{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  [4, '{&var:3}', '&var=val'],
  [4, '{&list}', '&list=red,green,blue'],
  [4, '{&list*}', '&list=red&list=green&list=blue'],
  [4, '{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  [4, '{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

// RFC 6570 section 3.2: the variables of the operator examples.
const SECTION_3_2_VARS: UriTemplateVariables = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: undefined,
};

// RFC 6570 sections 3.2.1-3.2.9 (maps expand in insertion order).
const SECTION_3_2_CASES: [section: string, template: string, expected: string][] = [
  ['3.2.1', '{count}', 'one,two,three'],
  ['3.2.1', '{count*}', 'one,two,three'],
  ['3.2.1', '{/count}', '/one,two,three'],
  ['3.2.1', '{/count*}', '/one/two/three'],
  ['3.2.1', '{;count}', ';count=one,two,three'],
  ['3.2.1', '{;count*}', ';count=one;count=two;count=three'],
  ['3.2.1', '{?count}', '?count=one,two,three'],
  ['3.2.1', '{?count*}', '?count=one&count=two&count=three'],
  ['3.2.1', '{&count*}', '&count=one&count=two&count=three'],
  ['3.2.2', '{var}', 'value'],
  ['3.2.2', '{hello}', 'Hello%20World%21'],
  ['3.2.2', '{half}', '50%25'],
  ['3.2.2', 'O{empty}X', 'OX'],
  ['3.2.2', 'O{undef}X', 'OX'],
  ['3.2.2', '{x,y}', '1024,768'],
  ['3.2.2', '{x,hello,y}', '1024,Hello%20World%21,768'],
  ['3.2.2', '?{x,empty}', '?1024,'],
  ['3.2.2', '?{x,undef}', '?1024'],
  ['3.2.2', '?{undef,y}', '?768'],
  ['3.2.2', '{var:3}', 'val'],
  ['3.2.2', '{var:30}', 'value'],
  ['3.2.2', '{list}', 'red,green,blue'],
  ['3.2.2', '{list*}', 'red,green,blue'],
  ['3.2.2', '{keys}', 'semi,%3B,dot,.,comma,%2C'],
  ['3.2.2', '{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  ['3.2.3', '{+var}', 'value'],
  ['3.2.3', '{+hello}', 'Hello%20World!'],
  ['3.2.3', '{+half}', '50%25'],
  ['3.2.3', '{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['3.2.3', '{+base}index', 'http://example.com/home/index'],
  ['3.2.3', 'O{+empty}X', 'OX'],
  ['3.2.3', 'O{+undef}X', 'OX'],
  ['3.2.3', '{+path}/here', '/foo/bar/here'],
  ['3.2.3', '{+path:6}/here', '/foo/b/here'],
  ['3.2.3', 'here?ref={+path}', 'here?ref=/foo/bar'],
  ['3.2.3', 'up{+path}{var}/here', 'up/foo/barvalue/here'],
  ['3.2.3', '{+x,hello,y}', '1024,Hello%20World!,768'],
  ['3.2.3', '{+path,x}/here', '/foo/bar,1024/here'],
  ['3.2.3', '{+list}', 'red,green,blue'],
  ['3.2.3', '{+list*}', 'red,green,blue'],
  ['3.2.3', '{+keys}', 'semi,;,dot,.,comma,,'],
  ['3.2.3', '{+keys*}', 'semi=;,dot=.,comma=,'],
  ['3.2.4', '{#var}', '#value'],
  ['3.2.4', '{#hello}', '#Hello%20World!'],
  ['3.2.4', '{#half}', '#50%25'],
  ['3.2.4', 'foo{#empty}', 'foo#'],
  ['3.2.4', 'foo{#undef}', 'foo'],
  ['3.2.4', '{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['3.2.4', '{#path,x}/here', '#/foo/bar,1024/here'],
  ['3.2.4', '{#path:6}/here', '#/foo/b/here'],
  ['3.2.4', '{#list}', '#red,green,blue'],
  ['3.2.4', '{#list*}', '#red,green,blue'],
  ['3.2.4', '{#keys}', '#semi,;,dot,.,comma,,'],
  ['3.2.4', '{#keys*}', '#semi=;,dot=.,comma=,'],
  ['3.2.5', '{.who}', '.fred'],
  ['3.2.5', '{.who,who}', '.fred.fred'],
  ['3.2.5', '{.half,who}', '.50%25.fred'],
  ['3.2.5', 'www{.dom*}', 'www.example.com'],
  ['3.2.5', 'X{.var}', 'X.value'],
  ['3.2.5', 'X{.empty}', 'X.'],
  ['3.2.5', 'X{.undef}', 'X'],
  ['3.2.5', 'X{.var:3}', 'X.val'],
  ['3.2.5', 'X{.list}', 'X.red,green,blue'],
  ['3.2.5', 'X{.list*}', 'X.red.green.blue'],
  ['3.2.5', 'X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  ['3.2.5', 'X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  ['3.2.5', 'X{.empty_keys}', 'X'],
  ['3.2.5', 'X{.empty_keys*}', 'X'],
  ['3.2.6', '{/who}', '/fred'],
  ['3.2.6', '{/who,who}', '/fred/fred'],
  ['3.2.6', '{/half,who}', '/50%25/fred'],
  ['3.2.6', '{/who,dub}', '/fred/me%2Ftoo'],
  ['3.2.6', '{/var}', '/value'],
  ['3.2.6', '{/var,empty}', '/value/'],
  ['3.2.6', '{/var,undef}', '/value'],
  ['3.2.6', '{/var,x}/here', '/value/1024/here'],
  ['3.2.6', '{/var:1,var}', '/v/value'],
  ['3.2.6', '{/list}', '/red,green,blue'],
  ['3.2.6', '{/list*}', '/red/green/blue'],
  ['3.2.6', '{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['3.2.6', '{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  ['3.2.6', '{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  ['3.2.7', '{;who}', ';who=fred'],
  ['3.2.7', '{;half}', ';half=50%25'],
  ['3.2.7', '{;empty}', ';empty'],
  ['3.2.7', '{;v,empty,who}', ';v=6;empty;who=fred'],
  ['3.2.7', '{;v,bar,who}', ';v=6;who=fred'],
  ['3.2.7', '{;x,y}', ';x=1024;y=768'],
  ['3.2.7', '{;x,y,empty}', ';x=1024;y=768;empty'],
  ['3.2.7', '{;x,y,undef}', ';x=1024;y=768'],
  ['3.2.7', '{;hello:5}', ';hello=Hello'],
  ['3.2.7', '{;list}', ';list=red,green,blue'],
  ['3.2.7', '{;list*}', ';list=red;list=green;list=blue'],
  ['3.2.7', '{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  ['3.2.7', '{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  ['3.2.8', '{?who}', '?who=fred'],
  ['3.2.8', '{?half}', '?half=50%25'],
  ['3.2.8', '{?x,y}', '?x=1024&y=768'],
  ['3.2.8', '{?x,y,empty}', '?x=1024&y=768&empty='],
  ['3.2.8', '{?x,y,undef}', '?x=1024&y=768'],
  ['3.2.8', '{?var:3}', '?var=val'],
  ['3.2.8', '{?list}', '?list=red,green,blue'],
  ['3.2.8', '{?list*}', '?list=red&list=green&list=blue'],
  ['3.2.8', '{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  ['3.2.8', '{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  ['3.2.9', '{&who}', '&who=fred'],
  ['3.2.9', '{&half}', '&half=50%25'],
  ['3.2.9', '?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['3.2.9', '{&x,y,empty}', '&x=1024&y=768&empty='],
  ['3.2.9', '{&x,y,undef}', '&x=1024&y=768'],
  ['3.2.9', '{&var:3}', '&var=val'],
  ['3.2.9', '{&list}', '&list=red,green,blue'],
  ['3.2.9', '{&list*}', '&list=red&list=green&list=blue'],
  ['3.2.9', '{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  ['3.2.9', '{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

function expand(template: string, variables: UriTemplateVariables): string {
  return UriTemplate.parse(template).expand(variables);
}

function match(template: string, uri: string): Record<string, string | string[]> | undefined {
  return UriTemplate.parse(template).match(uri);
}

describe('UriTemplate.expand', () => {
  it.each(LEVEL_CASES)('RFC 6570 1.2 level %i: %s', (_level, template, expected) => {
    expect(expand(template, LEVEL_VARS)).toBe(expected);
  });

  it.each(SECTION_3_2_CASES)('RFC 6570 %s: %s', (_section, template, expected) => {
    expect(expand(template, SECTION_3_2_VARS)).toBe(expected);
  });

  it('expands numbers and booleans as strings', () => {
    expect(expand('/items/{id}{?all}', { id: 42, all: true })).toBe('/items/42?all=true');
    expect(expand('{?n}', { n: 0 })).toBe('?n=0');
  });

  it('skips missing variables, null, empty lists and empty maps', () => {
    const untyped = { a: null, b: [], c: {}, d: [undefined] } as unknown as UriTemplateVariables;
    expect(expand('x{a}{/b}{?c}{;d}y', untyped)).toBe('xy');
    expect(expand('{?a,b}', {})).toBe('');
  });

  it('pct-encodes UTF-8, keeps triplets only for + and #, and replaces lone surrogates', () => {
    expect(expand('{v}', { v: 'é€😀' })).toBe('%C3%A9%E2%82%AC%F0%9F%98%80');
    expect(expand('{v}', { v: 'a%20b' })).toBe('a%2520b');
    expect(expand('{+v}', { v: 'a%20b%zz' })).toBe('a%20b%25zz');
    expect(expand('{#v}', { v: '%7e/x' })).toBe('#%7e/x');
    expect(expand('{v}', { v: '\ud800' })).toBe('%EF%BF%BD');
    expect(expand('{v}', { v: "-._~:/?#[]@!$&'()*+,;=" })).toBe(
      '-._~%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D',
    );
  });

  it('counts prefix lengths in code points, and a triplet as one character for + and #', () => {
    expect(expand('{v:2}', { v: '😀😀😀' })).toBe('%F0%9F%98%80%F0%9F%98%80');
    expect(expand('{+v:2}', { v: '%20ab' })).toBe('%20a');
    expect(expand('{v:2}', { v: '%20ab' })).toBe('%252');
  });

  it('ignores a prefix modifier on list and map values', () => {
    expect(expand('{list:1}', { list: ['ab', 'cd'] })).toBe('ab,cd');
    expect(expand('{;keys:1}', { keys: { a: 'b' } })).toBe(';keys=a,b');
  });

  it('pct-encodes literal characters that are not allowed in a URI', () => {
    expect(expand('my docs/{name}', { name: 'a b' })).toBe('my%20docs/a%20b');
    expect(expand('100%/{x}', { x: '1' })).toBe('100%25/1');
    expect(expand('a%2Fb/{x}', { x: '1' })).toBe('a%2Fb/1');
  });

  it('does not read inherited properties of the variables object', () => {
    expect(expand('{constructor}{toString}', {})).toBe('');
  });

  it('expands the MCP examples', () => {
    expect(expand('file:///{path}', { path: 'readme.md' })).toBe('file:///readme.md');
    expect(expand('github://repos/{owner}/{repo}', { owner: 'octo', repo: 'hello world' })).toBe(
      'github://repos/octo/hello%20world',
    );
    expect(expand('users://{id}{?fields}', { id: '7', fields: ['name', 'email'] })).toBe(
      'users://7?fields=name,email',
    );
    expect(expand('test://template/{id}/data', { id: 'abc' })).toBe('test://template/abc/data');
  });
});

describe('UriTemplate.match', () => {
  it('matches the MCP examples', () => {
    expect(match('file:///{path}', 'file:///readme.md')).toEqual({ path: 'readme.md' });
    expect(match('github://repos/{owner}/{repo}', 'github://repos/octo/hello%20world')).toEqual({
      owner: 'octo',
      repo: 'hello world',
    });
    expect(match('users://{id}{?fields}', 'users://7')).toEqual({ id: '7' });
    expect(match('users://{id}{?fields}', 'users://7?fields=name,email')).toEqual({
      id: '7',
      fields: 'name,email',
    });
    expect(match('test://template/{id}/data', 'test://template/abc/data')).toEqual({ id: 'abc' });
    expect(match('test://template/{id}/data', 'test://template/abc/other')).toBeUndefined();
    expect(match('users://{id}/profile{?fields}', 'users://1/profile?fields=a')).toEqual({
      id: '1',
      fields: 'a',
    });
  });

  it('anchors at both ends', () => {
    expect(match('test://x/{id}', 'test://x/1/extra')).toBeUndefined();
    expect(match('test://x/{id}', 'prefix-test://x/1')).toBeUndefined();
    expect(match('test://x/{id}', 'test://x/1#frag')).toBeUndefined();
    expect(match('test://static', 'test://static')).toEqual({});
    expect(match('test://static', 'test://static2')).toBeUndefined();
  });

  it('requires a non-empty value for a simple variable', () => {
    expect(match('file:///{name}', 'file:///')).toBeUndefined();
    expect(match('a/{x}/b', 'a//b')).toBeUndefined();
  });

  it('never lets a simple variable take a slash, raw or encoded', () => {
    expect(match('file:///{name}', 'file:///a/../b')).toBeUndefined();
    expect(match('file:///{name}', 'file:///..%2F..%2Fetc%2Fpasswd')).toBeUndefined();
    expect(match('file:///{name}', 'file:///..%2f..')).toBeUndefined();
    expect(match('x{.ext}', 'x.a%2Fb')).toBeUndefined();
    expect(match('x{/seg}', 'x/a%2Fb')).toBeUndefined();
    expect(match('x{;p}', 'x;p=a%2Fb')).toBeUndefined();
    expect(match('file:///{name}', 'file:///..')).toEqual({ name: '..' });
  });

  it('lets {+var} and {#var} span slashes', () => {
    expect(match('file:///{+path}', 'file:///a/b/c.txt')).toEqual({ path: 'a/b/c.txt' });
    expect(match('{+path}/here', '/foo/bar/here')).toEqual({ path: '/foo/bar' });
    expect(match('x{#frag}', 'x#a/b?c#d')).toEqual({ frag: 'a/b?c#d' });
    expect(match('file:///{+path}{?rev}', 'file:///a/b?rev=2')).toEqual({ path: 'a/b', rev: '2' });
  });

  it('matches path segments, exploded into a list', () => {
    expect(match('repo{/owner,name}', 'repo/octo/hello')).toEqual({ owner: 'octo', name: 'hello' });
    expect(match('repo{/owner,name}', 'repo/octo')).toEqual({ owner: 'octo' });
    expect(match('root{/path*}', 'root/a/b%20c/d')).toEqual({ path: ['a', 'b c', 'd'] });
    expect(match('root{/path*}', 'root')).toEqual({});
    expect(match('root{/path*}/end', 'root/a/end')).toEqual({ path: ['a'] });
  });

  it('matches labels', () => {
    expect(match('www{.dom*}', 'www.example.com')).toEqual({ dom: ['example', 'com'] });
    expect(match('file:///{name}{.ext}', 'file:///report.pdf')).toEqual({
      name: 'report',
      ext: 'pdf',
    });
    expect(match('file:///{name}{.ext}', 'file:///README')).toEqual({ name: 'README' });
    expect(match('X{.x,y}', 'X.1024.768')).toEqual({ x: '1024', y: '768' });
  });

  it('matches path-style parameters', () => {
    expect(match('m{;x,y}', 'm;x=1024;y=768')).toEqual({ x: '1024', y: '768' });
    expect(match('m{;x,y,empty}', 'm;x=1024;y=768;empty')).toEqual({
      x: '1024',
      y: '768',
      empty: '',
    });
    expect(match('m{;list*}', 'm;list=red;list=green')).toEqual({ list: ['red', 'green'] });
    expect(match('m{;x}', 'm;y=1')).toBeUndefined();
    expect(match('m{;x}', 'm;xyz')).toBeUndefined();
    expect(match('m{;x}', 'm;x=')).toEqual({ x: '' });
    expect(match('m{;x}', 'm')).toEqual({});
  });

  it('matches query parameters in any order, all optional, ignoring unknown ones', () => {
    const t = 'search://items{?q,page,sort}';
    expect(match(t, 'search://items?page=2&q=red%20car')).toEqual({ q: 'red car', page: '2' });
    expect(match(t, 'search://items?sort=asc&extra=1&q=x')).toEqual({ q: 'x', sort: 'asc' });
    expect(match(t, 'search://items')).toEqual({});
    expect(match(t, 'search://items?')).toEqual({});
    expect(match(t, 'search://items?q=&page')).toEqual({ q: '', page: '' });
    expect(match(t, 'search://items?q=1&q=2')).toEqual({ q: '1' });
    expect(match(t, 'search://items?q=a/b')).toEqual({ q: 'a/b' });
    expect(match(t, 'search://items?q=a+b')).toEqual({ q: 'a+b' });
  });

  it('matches split query expressions and continuations', () => {
    expect(match('s{?a}{&b}', 's?b=2&a=1')).toEqual({ a: '1', b: '2' });
    expect(match('s?fixed=yes{&x}', 's?fixed=yes&x=1024')).toEqual({ x: '1024' });
    expect(match('s?fixed=yes{&x}', 's?fixed=yes')).toEqual({});
    expect(match('s?fixed=yes{&x}', 's?fixed=no&x=1')).toBeUndefined();
    expect(match('s?{&x}', 's?x=1')).toEqual({ x: '1' });
    expect(match('s{&x}', 's&x=1')).toEqual({ x: '1' });
    expect(match('s{?list*}', 's?list=red&other=1&list=green')).toEqual({
      list: ['red', 'green'],
    });
  });

  it('does not match malformed percent-encoding, and never throws', () => {
    expect(match('file:///{name}', 'file:///%zz')).toBeUndefined();
    expect(match('file:///{name}', 'file:///%C3')).toBeUndefined();
    expect(match('file:///{name}', 'file:///%')).toBeUndefined();
    expect(match('file:///{+path}', 'file:///a/%E0%A4%A')).toBeUndefined();
    expect(match('s{?q}', 's?q=%zz')).toBeUndefined();
    expect(match('s{?q}', 's?%zz=1&q=ok')).toEqual({ q: 'ok' });
    expect(match('r{/p*}', 'r/a/%FF')).toBeUndefined();
  });

  it('decodes UTF-8', () => {
    expect(match('file:///{name}', 'file:///caf%C3%A9')).toEqual({ name: 'café' });
    expect(match('file:///{name}', 'file:///café')).toEqual({ name: 'café' });
  });

  it('requires a repeated variable to have the same value everywhere', () => {
    expect(match('{a}/{a}', 'x/x')).toEqual({ a: 'x' });
    expect(match('{a}/{a}', 'x/y')).toBeUndefined();
  });

  it('matches literals that expansion would pct-encode, raw or encoded', () => {
    expect(match('my docs/{name}', 'my docs/a')).toEqual({ name: 'a' });
    expect(match('my docs/{name}', 'my%20docs/a')).toEqual({ name: 'a' });
    expect(match('a.b*c/{x}', 'a.b*c/1')).toEqual({ x: '1' });
    expect(match('a.b*c/{x}', 'aXb*c/1')).toBeUndefined();
  });

  it('returns own properties for any variable name', () => {
    const result = match('x/{__proto__}', 'x/1');
    expect(Object.keys(result ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it('limits a prefixed variable to its length in characters', () => {
    expect(match('{v:3}/{w}', 'abc/def')).toEqual({ v: 'abc', w: 'def' });
    expect(match('{v:3}/{w}', 'abcd/def')).toBeUndefined();
    expect(match('{v:1}', '%C3%A9')).toEqual({ v: 'é' });
    expect(match('{v:1}', '%F0%9F%98%80')).toEqual({ v: '😀' });
  });

  it('gives earlier variables the shortest text that lets the rest match', () => {
    expect(match('{a}{b}', 'abc')).toEqual({ a: 'a', b: 'bc' });
    expect(match('{+dir}/{file}', 'a/b/c')).toEqual({ dir: 'a/b', file: 'c' });
    expect(match('{name}{.ext}', 'archive.tar.gz')).toEqual({ name: 'archive', ext: 'tar.gz' });
  });

  it('stays linear on ambiguous templates and long input (no ReDoS)', () => {
    const cases: [template: string, uri: string][] = [
      // A backtracking RegExp takes O(n^4) steps on the first: hours for n = 20,000.
      ['x://{a}{b}{c}{d}{?q}', `x://${'a'.repeat(20_000)}/`],
      ['{+a}/{+b}/{+c}/{d}', `${'/'.repeat(20_000)}#`],
      ['{name}{.ext}{/rest*}', `${'a.'.repeat(10_000)}%`],
      ['r{/p*}{;q*}{.r*}x', `r${'/;.'.repeat(7_000)}`],
    ];
    for (const [template, uri] of cases) {
      const started = Date.now();
      expect(UriTemplate.parse(template).match(uri)).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it('does not match URIs longer than 64 KiB', () => {
    const t = UriTemplate.parse('x://{+rest}');
    expect(t.match(`x://${'a'.repeat(65_536 - 4)}`)).toEqual({ rest: 'a'.repeat(65_532) });
    expect(t.match(`x://${'a'.repeat(65_536 - 3)}`)).toBeUndefined();
  });
});

describe('UriTemplate round trips', () => {
  // match(expand(v)) returns v for the invertible cases: defined, non-empty string values without
  // the separators of their operator, and lists for exploded {/x*}, {.x*}, {;x*}, {?x*}, {&x*}.
  const cases: [template: string, variables: Record<string, string | string[]>][] = [
    ['file:///{path}', { path: 'notes & ideas (1).txt' }],
    ['github://repos/{owner}/{repo}', { owner: 'octo-org', repo: 'hello_world' }],
    ['users://{id}{?fields}', { id: '42', fields: 'name,email' }],
    ['users://{id}{?fields}', { id: 'ü?#' }],
    ['test://template/{id}/data', { id: '100%' }],
    ['{x,y}', { x: '1024', y: '768' }],
    ['{+path}/here', { path: '/foo/bar' }],
    ['{+base}index', { base: 'http://example.com/home/' }],
    ['X{#frag}', { frag: 'a/b,c' }],
    ['X{.var}', { var: 'value' }],
    ['www{.dom*}', { dom: ['example', 'com'] }],
    ['{/var,x}/here', { var: 'value', x: '1024' }],
    ['root{/path*}', { path: ['a b', 'c', ''] }],
    ['{;x,y}', { x: '1024', y: '768' }],
    ['{;list*}', { list: ['red', 'green'] }],
    ['{?x,y,empty}', { x: '1024', y: '768', empty: '' }],
    ['{?list*}', { list: ['red', 'green', 'blue'] }],
    ['?fixed=yes{&x,y}', { x: '1 2', y: 'a&b=c' }],
    ['s{?a}{&b*}', { a: 'x', b: ['1', '2'] }],
  ];

  it.each(cases)('%s with %j', (template, variables) => {
    const t = UriTemplate.parse(template);
    const uri = t.expand(variables);
    expect(t.match(uri)).toEqual(variables);
  });

  it('is not invertible for {var} values containing a slash (they never match)', () => {
    const t = UriTemplate.parse('file:///{name}');
    expect(t.expand({ name: 'a/b' })).toBe('file:///a%2Fb');
    expect(t.match('file:///a%2Fb')).toBeUndefined();
  });
});

describe('UriTemplate.parse', () => {
  it('lists variable names once, in order of appearance', () => {
    const t = UriTemplate.parse('x{/a,b*}{.c:3}{?d,a}{&e}{#f}{;g}{+h}');
    expect(t.variableNames).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(UriTemplate.parse('plain').variableNames).toEqual([]);
    expect(UriTemplate.parse('{a.b,c%20d}').variableNames).toEqual(['a.b', 'c%20d']);
  });

  it('keeps the template text', () => {
    const t = UriTemplate.parse('users://{id}');
    expect(t.template).toBe('users://{id}');
    expect(t.toString()).toBe('users://{id}');
    expect(String(t)).toBe('users://{id}');
  });

  it('accepts every operator, modifier and prefix bound', () => {
    for (const template of ['{a}', '{+a}', '{#a}', '{.a}', '{/a}', '{;a}', '{?a}', '{&a}']) {
      expect(() => UriTemplate.parse(template)).not.toThrow();
    }
    for (const template of ['{a:1}', '{a:9999}', '{a*}', '{a_1.B2,c*,d:10}', '{%41}']) {
      expect(() => UriTemplate.parse(template)).not.toThrow();
    }
  });

  const invalid: [template: string, message: string][] = [
    ['file:///{path', "unclosed expression (missing '}') at position 8"],
    ['{a', "unclosed expression (missing '}') at position 0"],
    ['{/id*', "unclosed expression (missing '}') at position 0"],
    ['/id*}', "unmatched '}' at position 4"],
    ['a}{b}', "unmatched '}' at position 1"],
    ['{a{b}}', "nested '{' inside an expression at position 2"],
    ['/sparql{?query){&x}', "nested '{' inside an expression at position 15"],
    ['x{}', 'empty expression at position 1'],
    ['{=path}', "reserved operator '=' at position 1"],
    ['{,a}', "reserved operator ',' at position 1"],
    ['{!hello}', "reserved operator '!' at position 1"],
    ['{@a}', "reserved operator '@' at position 1"],
    ['{|var*}', "reserved operator '|' at position 1"],
    ['{$var}', "invalid operator '$' at position 1"],
    ['{*keys?}', "invalid operator '*' at position 1"],
    ['/people/{~thing}', "invalid operator '~' at position 9"],
    ['{var}{-prefix|/-/|var}', "invalid operator '-' at position 6"],
    ['{+}', 'empty variable name at position 2'],
    ['{a,}', 'empty variable name at position 3'],
    ['{a,,b}', 'empty variable name at position 3'],
    ['{??hello}', "invalid character '?' in variable name at position 2"],
    ['{/?id}', "invalid character '?' in variable name at position 2"],
    ['{a b}', "invalid character ' ' in variable name at position 2"],
    ['{?empty=default,var}', "invalid character '=' in variable name at position 7"],
    ['/h#{hello+}', "invalid character '+' in variable name at position 9"],
    ['/resolution{?x, y}', "invalid character ' ' in variable name at position 15"],
    ['{é}', "invalid operator 'é' at position 1"],
    ['{😀}', "invalid operator '😀' at position 1"],
    ['{a😀}', "invalid character '😀' in variable name at position 2"],
    ['{.a.}', "variable name ends with '.' at position 3"],
    ['{..a}', "variable name starts with '.' at position 2"],
    ['{a..b}', "'..' in variable name at position 3"],
    ['{a%2}', 'invalid percent-encoding in variable name at position 2'],
    ['{a%zz}', 'invalid percent-encoding in variable name at position 2'],
    ['{var:prefix}', 'prefix modifier is not a number from 1 to 9999 at position 5'],
    ['{var:}', 'prefix modifier is not a number from 1 to 9999 at position 5'],
    ['{hello:2*}', 'prefix modifier is not a number from 1 to 9999 at position 7'],
    ['{a:-1}', 'prefix modifier is not a number from 1 to 9999 at position 3'],
    ['{a:0}', 'prefix modifier 0 is out of range (1..9999) at position 3'],
    ['{a:01}', 'prefix modifier 01 is out of range (1..9999) at position 3'],
    ['{a:10000}', 'prefix modifier 10000 is out of range (1..9999) at position 3'],
    ['{a*:3}', "unexpected ':' after '*' at position 3"],
    ['{a**}', "unexpected '*' after '*' at position 3"],
  ];

  it.each(invalid)('rejects %j', (template, message) => {
    expect(() => UriTemplate.parse(template)).toThrow(TypeError);
    expect(() => UriTemplate.parse(template)).toThrow(
      `invalid URI template ${JSON.stringify(template)}: ${message}`,
    );
  });
});

describe('isUriTemplate', () => {
  it('is true for a valid template with at least one expression', () => {
    expect(isUriTemplate('file:///{path}')).toBe(true);
    expect(isUriTemplate('users://{id}{?fields}')).toBe(true);
  });

  it('is false for plain URIs and invalid templates', () => {
    expect(isUriTemplate('file:///readme.md')).toBe(false);
    expect(isUriTemplate('')).toBe(false);
    expect(isUriTemplate('file:///{path')).toBe(false);
    expect(isUriTemplate('{}')).toBe(false);
  });
});
