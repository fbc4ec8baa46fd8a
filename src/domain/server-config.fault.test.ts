import { describe, expect, it } from 'vitest';
import { AppConfig } from './app-config';
import { ValidationError } from './errors';
import { ServerConfig, serverUrlProblem } from './server-config';
import { parseOrThrow } from './validation';

const valid = { id: 'weather', name: 'Weather', url: 'https://mcp.example.com/mcp' };

function issuesOf(schema: typeof ServerConfig | typeof AppConfig, value: unknown) {
  try {
    parseOrThrow(schema, value, 'Server');
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues;
  }
  throw new Error('expected a validation error');
}

describe('ServerConfig', () => {
  it('fills defaults for a minimal server', () => {
    expect(ServerConfig.parse(valid)).toEqual({
      ...valid,
      transport: 'auto',
      auth: { kind: 'none' },
      enabled: true,
      toolOverrides: {},
      deferTools: true,
      viaRelay: false,
    });
  });

  it.each([
    ['not a url', 'must be a full URL'],
    ['localhost:3000/mcp', 'needs its scheme at the start: http://localhost:3000/mcp'],
    ['mcp.example.com/mcp', 'needs its scheme at the start: https://mcp.example.com/mcp'],
    ['127.0.0.1:8080', 'needs its scheme at the start: http://127.0.0.1:8080'],
    ['127.0.0.2:8080/mcp', 'needs its scheme at the start: https://127.0.0.2:8080/mcp'],
    ['ftp://example.com/mcp', 'must use https://'],
    ['javascript:alert(1)', 'must use https://'],
    ['http://mcp.example.com/mcp', 'plain http:// is allowed only for localhost'],
    ['https://user:pw@example.com/mcp', 'must not contain a user name or password'],
    ['http://[::1]:3001/mcp', 'must name localhost or 127.0.0.1'],
    ['http://127.0.0.2:3001/mcp', 'must name localhost or 127.0.0.1'],
  ])('rejects the URL %s naming the url field', (url, message) => {
    const issues = issuesOf(ServerConfig, { ...valid, url });
    expect(issues).toEqual([{ path: 'url', message: expect.stringContaining(message) as string }]);
  });

  it.each([
    'http://localhost:3001/mcp',
    'http://127.0.0.1:3001/mcp',
    'https://[::1]:3001/mcp',
    'https://example.com/mcp',
  ])('accepts %s', (url) => {
    expect(serverUrlProblem(url)).toBeUndefined();
  });

  it('names each missing field', () => {
    const paths = issuesOf(ServerConfig, { url: valid.url }).map((i) => i.path);
    expect(paths).toEqual(['id', 'name']);
  });

  it('rejects an unknown auth kind with the kinds it accepts', () => {
    const issues = issuesOf(ServerConfig, { ...valid, auth: { kind: 'magic' } });
    expect(issues).toEqual([{ path: 'auth.kind', message: 'Auth kind must be one of none, bearer, headers, oauth' }]);
  });

  it('rejects reserved and malformed header names', () => {
    const issues = issuesOf(ServerConfig, {
      ...valid,
      auth: { kind: 'headers', headerNames: ['Mcp-Session-Id', 'bad name'] },
    });
    expect(issues.map((i) => [i.path, i.message])).toEqual([
      ['auth.headerNames.0', 'Header name is reserved for the MCP transport'],
      ['auth.headerNames.1', expect.stringContaining('Header name may contain only')],
    ]);
  });

  it('keeps no secret in the config: bearer auth has no token field', () => {
    expect(ServerConfig.parse({ ...valid, auth: { kind: 'bearer', token: 'sk-secret' } }).auth).toEqual({
      kind: 'bearer',
    });
  });
});

describe('AppConfig', () => {
  it('gives complete defaults for an empty file', () => {
    const config = AppConfig.parse({});
    expect(config.servers).toEqual([]);
    expect(config.defaults.toolSearch).toEqual({
      mode: 'client',
      strategy: 'bm25',
      deferral: 'auto',
      preloadCount: 3,
      loadedToolCap: 20,
    });
  });

  it('rejects duplicate server ids and names, naming the position', () => {
    const issues = issuesOf(AppConfig, {
      servers: [valid, { ...valid, name: 'Other' }, { ...valid, id: 'other', name: 'weather' }],
    });
    expect(issues).toEqual([
      { path: 'servers.1.id', message: 'Duplicate server id "weather" (also at position 0)' },
      { path: 'servers.2.name', message: 'Duplicate server name "weather"' },
    ]);
  });

  it('names the field of a bad nested default', () => {
    const issues = issuesOf(AppConfig, { defaults: { toolSearch: { preloadCount: -1 } } });
    expect(issues.map((i) => i.path)).toEqual(['defaults.toolSearch.preloadCount']);
  });
});
