import { describe, expect, it } from 'vitest';
import { buildConfigFile, MAX_IMPORTED_SERVERS } from './config-file';
import { readConfigFile, type ImportPlan } from './config-import';
import { ServerConfig } from './server-config';
import { UserConfig } from './user-config';

const file = (parts: Record<string, unknown>) => JSON.stringify({ format: 'mcp-agent-config', version: 1, ...parts });
const planOf = (text: string): ImportPlan => {
  const read = readConfigFile(text);
  if (!read.ok) throw new Error(read.message);
  return read.plan;
};

describe('readConfigFile', () => {
  it('reads back what an export wrote', () => {
    const appServerToolOverrides = {
      company: { 'delete-all': { enabled: false }, echo: { description: 'Says it back.' } },
    };
    const profile = UserConfig.parse({
      id: 'p1',
      name: 'Sam',
      createdAt: 1,
      defaultServerIds: ['a'],
      preferences: { theme: 'dark', toolSearch: { mode: 'anthropic' } },
      appServerToolOverrides,
    });
    const servers = [
      ServerConfig.parse({
        id: 'a',
        name: 'A',
        url: 'https://a.example/mcp',
        auth: { kind: 'headers', headerNames: ['X-Key'] },
        deferTools: false,
      }),
    ];
    const plan = planOf(JSON.stringify(buildConfigFile(profile, servers, new Date(0))));
    expect(plan).toEqual({
      preferences: { theme: 'dark', toolSearch: { mode: 'anthropic' } },
      servers,
      defaultServerIds: ['a'],
      appServerToolOverrides,
      rejected: [],
      ignored: [],
    });
  });

  it('exports only the app-server tool switches that change something, and none when there are none', () => {
    const profile = (appServerToolOverrides: unknown) =>
      UserConfig.parse({ id: 'p1', name: 'Sam', createdAt: 1, appServerToolOverrides });
    expect(buildConfigFile(profile({}), [], new Date(0))).not.toHaveProperty('appServerToolOverrides');
    const file = buildConfigFile(
      profile({ empty: {}, company: { echo: { enabled: true }, add: { enabled: false, description: '  ' } } }),
      [],
      new Date(0),
    );
    expect(file.appServerToolOverrides).toEqual({ company: { add: { enabled: false } } });
  });

  it('checks the tool switches for app servers server by server and tool by tool, and names fields it does not know', () => {
    const plan = planOf(
      file({
        appServerToolOverrides: {
          company: {
            echo: { enabled: false, secret: 'x' },
            add: { description: 'y'.repeat(4001) },
            '': { enabled: false },
            slow: 'off',
          },
          'Bad id!': { echo: { enabled: false } },
          other: ['echo'],
        },
      }),
    );
    expect(plan.appServerToolOverrides).toEqual({ company: { echo: { enabled: false } } });
    expect(plan.rejected).toEqual([
      {
        subject: 'Tool "add" of app server "company"',
        reasons: ['description: Description override must be at most 4000 characters'],
      },
      { subject: 'Tool "" of app server "company"', reasons: ['Tool name is required'] },
      { subject: 'Tool "slow" of app server "company"', reasons: ['Invalid input: expected object, received string'] },
      {
        subject: 'Tool settings for app server "Bad id!"',
        reasons: ['Server id may contain letters, digits, "-" and single "_" between them'],
      },
      { subject: 'Tool settings for app server "other"', reasons: ['must be an object of tool names'] },
    ]);
    expect(plan.ignored).toEqual(['appServerToolOverrides.company.echo.secret']);
    expect(planOf(file({ appServerToolOverrides: ['company'] })).rejected).toEqual([
      { subject: 'Tool settings for app servers', reasons: ['must be an object of server ids'] },
    ]);
    // JSON.parse makes "__proto__" an own key; it stays a name to refuse, never the object's prototype.
    const hostile = planOf(
      '{"format":"mcp-agent-config","version":1,"appServerToolOverrides":{"company":{"__proto__":{"enabled":false}}}}',
    );
    expect(hostile.appServerToolOverrides).toEqual({});
    expect(hostile.rejected).toEqual([
      {
        subject: 'Tool "__proto__" of app server "company"',
        reasons: ['A tool named "__proto__" cannot have settings'],
      },
    ]);
  });

  it('rejects parts of the wrong shape one by one and keeps the rest', () => {
    const plan = planOf(file({ preferences: 'dark please', servers: { a: 1 }, defaultServerIds: 'a' }));
    expect(plan.rejected).toEqual([
      { subject: 'Preferences', reasons: ['must be an object'] },
      { subject: 'Servers', reasons: ['must be a list'] },
      { subject: 'Default servers', reasons: ['must be a list of server ids'] },
    ]);
    const servers = planOf(
      file({
        servers: [
          42,
          { id: 'a', name: 'A', url: 'https://a.example/mcp' },
          { id: 'a', name: 'Other', url: 'https://b.example/mcp' },
        ],
      }),
    );
    expect(servers.servers.map((s) => s.name)).toEqual(['A']);
    expect(servers.rejected).toEqual([
      { subject: 'Server 1', reasons: ['must be an object'] },
      { subject: 'Server "Other"', reasons: ['appears twice in the file (same id as "A"); the first one is imported'] },
    ]);
  });

  it('never reads secrets from a file: unknown fields, in a server or its auth, are left out and named', () => {
    const plan = planOf(
      file({
        apiKey: 'sk-ant-x',
        servers: [
          { id: 'a', name: 'A', url: 'https://a.example/mcp', token: 't', auth: { kind: 'bearer', token: 't' } },
        ],
      }),
    );
    expect(plan.servers[0]?.auth).toEqual({ kind: 'bearer' });
    expect(JSON.stringify(plan.servers)).not.toContain('"t"');
    expect(plan.ignored).toEqual(['apiKey', 'servers.0.token', 'servers.0.auth.token']);
  });

  it('takes at most the first 100 servers', () => {
    const servers = Array.from({ length: MAX_IMPORTED_SERVERS + 2 }, (_, i) => ({
      id: `s${i}`,
      name: `S${i}`,
      url: 'https://a.example/mcp',
    }));
    const plan = planOf(file({ servers }));
    expect(plan.servers).toHaveLength(MAX_IMPORTED_SERVERS);
    expect(plan.rejected.map((r) => r.subject)).toEqual(['Server "S100"', 'Server "S101"']);
  });

  it('shortens the list of ignored fields a hostile file could make huge', () => {
    const junk = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${'x'.repeat(100)}${i}`, 1]));
    const { ignored } = planOf(file(junk));
    expect(ignored).toHaveLength(21);
    expect(ignored[0]).toBe(`${'x'.repeat(60)}…`);
    expect(ignored[20]).toBe('and 10 more');
  });
});
