import { describe, expect, it } from 'vitest';
import { ValidationError } from '../domain/errors';
import { ServerConfig } from '../domain/server-config';
import {
  changesConnection,
  checkServerForm,
  configFromForm,
  EMPTY_SERVER_FORM,
  fieldErrorsOf,
  formFromConfig,
  pendingSecrets,
  type ServerForm,
} from './server-form';

const form = (change: Partial<ServerForm>): ServerForm => ({
  ...EMPTY_SERVER_FORM,
  name: 'Weather',
  url: 'https://weather.example/mcp',
  ...change,
});
const headers = (...rows: [string, string][]) =>
  form({ auth: 'headers', headers: rows.map(([name, value]) => ({ name, value })) });

describe('checking the server form', () => {
  it('accepts a complete form and names each missing field', () => {
    expect(checkServerForm(form({}))).toEqual({});
    expect(checkServerForm({ ...EMPTY_SERVER_FORM })).toEqual({
      name: 'Server name is required',
      url: 'Server URL is required',
    });
  });

  it('explains a URL that is not acceptable', () => {
    expect(checkServerForm(form({ url: 'ftp://weather.example' })).url).toBe('Server URL must use https:// (got ftp:)');
    expect(checkServerForm(form({ url: 'http://weather.example/mcp' })).url).toContain(
      'plain http:// is allowed only for localhost',
    );
  });

  it('asks for a bearer token unless one is stored, and refuses one that cannot be sent', () => {
    expect(checkServerForm(form({ auth: 'bearer' })).token).toBe('Bearer token is required');
    expect(checkServerForm(form({ auth: 'bearer' }), { hasToken: true, headerNames: new Set() })).toEqual({});
    expect(checkServerForm(form({ auth: 'bearer', token: 'abc\ndef' })).token).toBe('Bearer token must be one line');
  });

  it('puts each header problem next to its row', () => {
    const errors = checkServerForm(
      headers(
        ['bad name', 'v'],
        ['Cookie', 'v'],
        ['Referer', 'v'],
        ['Sec-Fetch-Mode', 'v'],
        ['X-Key', ''],
        ['x-key', 'v'],
        ['X-Ok', 'caf\u00e9 \u2603'],
      ),
    );
    expect(errors).toEqual({
      'headers.0.name': expect.stringContaining('Header name may contain only') as string,
      'headers.1.name': 'Header name is reserved for the MCP transport',
      'headers.2.name': 'Browsers do not let a page send the header "Referer"',
      'headers.3.name': 'Browsers do not let a page send the header "Sec-Fetch-Mode"',
      'headers.4.value': 'Header value is required',
      'headers.5.name': 'This header is already listed',
      'headers.6.value': 'Header value may contain only printable Latin-1 characters',
    });
  });

  it('asks for the client ID a client secret belongs to', () => {
    expect(checkServerForm(form({ auth: 'oauth', clientSecret: 's3cret' })).clientId).toBe(
      'A client secret needs the client ID it belongs to',
    );
    expect(checkServerForm(form({ auth: 'oauth', clientId: 'app-1', clientSecret: 's3cret' }))).toEqual({});
  });

  it('needs at least one header, ignores blank rows, and lets stored values stay blank', () => {
    expect(checkServerForm(headers(['', ''])).headers).toBe(
      'Add at least one header, or choose another kind of authentication',
    );
    expect(
      checkServerForm(headers(['X-Api-Key', '']), { hasToken: false, headerNames: new Set(['x-api-key']) }),
    ).toEqual({});
    expect(checkServerForm(headers(['', ''], ['X-Api-Key', 'k']))).toEqual({});
  });
});

describe('from the form to a config and vault slots', () => {
  it('keeps header names in the config and their values out of it', () => {
    const filled = headers(['', ''], [' X-Api-Key ', 'sesame'], ['X-Team', 'blue']);
    const config = ServerConfig.parse(configFromForm(filled, 'weather'));
    expect(config.auth).toEqual({ kind: 'headers', headerNames: ['X-Api-Key', 'X-Team'] });
    expect(JSON.stringify(config)).not.toContain('sesame');
    expect(pendingSecrets(filled)).toEqual({ 'header:x-api-key': 'sesame', 'header:x-team': 'blue' });
    expect(pendingSecrets(headers(['X-Api-Key', '']))).toEqual({});
  });

  it('keeps what the form does not show (tool settings) when editing', () => {
    const saved = ServerConfig.parse({
      id: 'weather',
      name: 'Weather',
      url: 'https://weather.example/mcp',
      toolOverrides: { forecast: { enabled: false } },
    });
    const edited = ServerConfig.parse(
      configFromForm({ ...formFromConfig(saved), url: 'https://weather.example/v2/mcp' }, 'weather', saved),
    );
    expect(edited).toEqual({ ...saved, url: 'https://weather.example/v2/mcp' });
  });

  it('carries "Tools of this server" both ways: as the settings say, always load, always defer', () => {
    for (const deferTools of [true, false, 'always'] as const) {
      const config = ServerConfig.parse(configFromForm(form({ deferTools }), 'weather'));
      expect(config.deferTools).toBe(deferTools);
      expect(formFromConfig(config).deferTools).toBe(deferTools);
    }
    const issue = ServerConfig.safeParse({ ...configFromForm(form({}), 'weather'), deferTools: 'sometimes' }).error
      ?.issues[0];
    expect(issue?.path).toEqual(['deferTools']);
    expect(issue?.message).toBe(
      'deferTools must be true (as the tool search settings say), false (always load) or "always" (always defer)',
    );
  });

  it('opens an edit form with every secret field blank', () => {
    const saved = ServerConfig.parse({
      id: 'w',
      name: 'W',
      url: 'https://w.example/mcp',
      auth: { kind: 'headers', headerNames: ['X-Api-Key'] },
    });
    expect(formFromConfig(saved)).toMatchObject({
      auth: 'headers',
      headers: [{ name: 'X-Api-Key', value: '' }],
      token: '',
      clientSecret: '',
    });
  });

  it('maps a name clash reported by the registry to the name field', () => {
    const error = new ValidationError('Server', [
      { path: 'name', message: 'A server named "Weather" already exists' },
      { path: 'deferTools', message: 'odd' },
    ]);
    expect(fieldErrorsOf(error)).toEqual({ name: 'A server named "Weather" already exists', form: 'odd' });
  });
});

describe('an edit that changes how the server is reached (tried before it is saved)', () => {
  const before = headers(['X-Api-Key', '']);
  it('is a new address, transport, relay, credential or header; not a name, a tool setting or stray spaces', () => {
    const same = [{ name: 'Weather 2' }, { deferTools: false as const }, { url: ' https://weather.example/mcp ' }];
    for (const change of same) expect(changesConnection(before, { ...before, ...change })).toBe(false);
    const moved: Partial<ServerForm>[] = [
      { url: 'https://weather.example/mcpx' },
      { transport: 'sse' },
      { viaRelay: true },
      { auth: 'none' },
      { headers: headers(['X-Api-Key', 'new value']).headers },
      { headers: headers(['X-Other', '']).headers },
    ];
    for (const change of moved) expect(changesConnection(before, { ...before, ...change })).toBe(true);
  });
});
