import { describe, expect, it } from 'vitest';
import {
  AuthError,
  bearerChallenge,
  parseChallenges,
  protectedResourceMetadataUrl,
  resourceMetadataUrls,
} from './auth.js';

describe('WWW-Authenticate challenges', () => {
  it('round-trips what bearerChallenge writes, escapes included', () => {
    const header = bearerChallenge({
      metadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      error: new AuthError('invalid_token', 'the "token" expired \\ long ago'),
      scopes: ['mcp', 'files:write'],
    });
    expect(parseChallenges(header)).toEqual([
      {
        scheme: 'Bearer',
        params: {
          error: 'invalid_token',
          error_description: "the 'token' expired ' long ago",
          scope: 'mcp files:write',
          resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
        },
      },
    ]);
  });

  it('reads several challenges in one header, token params and token68', () => {
    expect(
      parseChallenges('Bearer realm=example, error="insufficient_scope", DPoP algs="ES256 PS256"'),
    ).toEqual([
      { scheme: 'Bearer', params: { realm: 'example', error: 'insufficient_scope' } },
      { scheme: 'DPoP', params: { algs: 'ES256 PS256' } },
    ]);
    expect(parseChallenges('Basic YWxhZGRpbjpvcGVuc2VzYW1l, Bearer')).toEqual([
      { scheme: 'Basic', params: {}, token68: 'YWxhZGRpbjpvcGVuc2VzYW1l' },
      { scheme: 'Bearer', params: {} },
    ]);
    expect(parseChallenges('Negotiate abc==')).toEqual([
      { scheme: 'Negotiate', params: {}, token68: 'abc==' },
    ]);
  });

  it('stops at what does not parse, without throwing', () => {
    expect(parseChallenges('')).toEqual([]);
    expect(parseChallenges('"quoted"')).toEqual([]);
    expect(parseChallenges('Bearer error="unterminated')).toEqual([
      { scheme: 'Bearer', params: {} },
    ]);
  });
});

describe('protected resource metadata URLs', () => {
  it('inserts the well-known path between the host and the resource path (RFC 9728)', () => {
    expect(protectedResourceMetadataUrl('https://mcp.example.com/mcp')).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    );
    expect(protectedResourceMetadataUrl('https://mcp.example.com/')).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    );
  });

  it('lists where a client looks: the challenge URL, the path-suffixed one, the root one', () => {
    expect(
      resourceMetadataUrls('https://mcp.example.com/tenant/mcp', 'https://meta.example.com/prm'),
    ).toEqual([
      'https://meta.example.com/prm',
      'https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
    expect(resourceMetadataUrls('https://mcp.example.com/')).toEqual([
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
  });
});
