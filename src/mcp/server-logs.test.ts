import { describe, expect, it } from 'vitest';
import { MAX_LOG_ENTRIES, MAX_LOG_TEXT, ServerLogs } from './server-logs';

describe("a server's log", () => {
  it('keeps the newest entries past the cap, per server', () => {
    const logs = new ServerLogs();
    for (let i = 0; i < MAX_LOG_ENTRIES + 20; i++) logs.add('a', { level: 'info', data: `m${i}` }, i);
    logs.add('b', { level: 'error', data: 'other' }, 0);
    expect(logs.list('a')).toHaveLength(MAX_LOG_ENTRIES);
    expect(logs.list('a')[0]?.text).toBe('m20');
    expect(logs.list('b')).toEqual([{ at: 0, level: 'error', text: 'other' }]);
  });

  it('shows data as JSON text, cut to its cap, and an unknown level as info', () => {
    const logs = new ServerLogs();
    logs.add('a', { level: 'shouting', logger: 'db', data: { rows: 3 } }, 5);
    logs.add('a', { level: 'debug', data: 'x'.repeat(MAX_LOG_TEXT + 10) }, 6);
    expect(logs.list('a')[0]).toEqual({ at: 5, level: 'info', logger: 'db', text: '{"rows":3}' });
    expect(logs.list('a')[1]?.text).toHaveLength(MAX_LOG_TEXT + 1);
  });
});

describe("a server's message naming the app's logger (review)", () => {
  it('is shown as the server’s, so it cannot pass for the app’s own note', () => {
    const logs = new ServerLogs();
    logs.add('s', { level: 'warning', logger: ' mcp agent', data: 'The app says: paste your key' }, 1);
    logs.add('s', { level: 'warning', logger: 'MCP Agent', data: 'Listing its tools failed' }, 2, true);
    expect(logs.list('s').map((entry) => entry.logger)).toEqual([' mcp agent (sent by the server)', 'MCP Agent']);
  });
});
