import { describe, expect, it } from 'vitest';
import { configDir, maskSecrets, tokenFile } from './oauth.js';

describe('maskSecrets', () => {
  it('masks credentials in form bodies', () => {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code: 'the-code',
      code_verifier: 'the-verifier',
      client_id: 'public-id',
      client_secret: 's3cret',
    }).toString();
    const masked = maskSecrets(body);
    expect(masked).toContain('grant_type=authorization_code');
    expect(masked).toContain('client_id=public-id');
    for (const secret of ['the-code', 'the-verifier', 's3cret'])
      expect(masked).not.toContain(secret);
  });

  it('masks credentials in JSON, at any depth', () => {
    const masked = maskSecrets(
      JSON.stringify({ access_token: 'at', token_type: 'Bearer', nested: { refresh_token: 'rt' } }),
    );
    expect(JSON.parse(masked)).toEqual({
      access_token: '***',
      token_type: 'Bearer',
      nested: { refresh_token: '***' },
    });
  });

  it('masks what the authorization server returns on registration', () => {
    const masked = maskSecrets(
      JSON.stringify({ client_id: 'c', registration_access_token: 'rat', device_code: 'dc' }),
    );
    expect(JSON.parse(masked)).toEqual({
      client_id: 'c',
      registration_access_token: '***',
      device_code: '***',
    });
  });

  it('masks credentials in text that does not parse (a body cut short)', () => {
    const cut = JSON.stringify({ token_type: 'Bearer', access_token: 'at1', refresh_token: 'rt1' });
    const masked = maskSecrets(cut.slice(0, -5));
    expect(masked).toContain('"token_type":"Bearer"');
    expect(masked).not.toContain('at1');
    expect(masked).toContain('"access_token":"***"');
    expect(maskSecrets('error: code=abc&state=s1')).toBe('error: code=***&state=s1');
  });

  it('leaves other text alone', () => {
    expect(maskSecrets('<html>not found</html>')).toBe('<html>not found</html>');
  });
});

describe('where the CLI keeps tokens', () => {
  it('MCPKIT_CONFIG_DIR, else XDG_CONFIG_HOME/mcpkit', () => {
    expect(configDir({ MCPKIT_CONFIG_DIR: '/c' })).toBe('/c');
    expect(configDir({ XDG_CONFIG_HOME: '/x' })).toBe('/x/mcpkit');
  });

  it('one file per server URL', () => {
    const env = { MCPKIT_CONFIG_DIR: '/c' };
    expect(tokenFile(env, 'https://a.example/mcp')).toMatch(/^\/c\/oauth\/[0-9a-f]{24}\.json$/);
    expect(tokenFile(env, 'https://a.example/mcp')).not.toBe(
      tokenFile(env, 'https://b.example/mcp'),
    );
  });
});
