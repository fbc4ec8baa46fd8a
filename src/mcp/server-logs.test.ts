import { describe, expect, it } from 'vitest';
import { MAX_APP_NOTES, MAX_LOG_ENTRIES, MAX_LOG_TEXT, ServerLogs } from './server-logs';

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
    logs.note('s', 'Listing its tools failed', 'warning', 2);
    expect(logs.list('s').map((entry) => entry.logger)).toEqual([' mcp agent (sent by the server)', 'MCP Agent']);
  });
});

describe("the app's notes in a server's log", () => {
  it('show with its messages in time order, and a flood of its messages cannot push them out', () => {
    const logs = new ServerLogs();
    logs.add('s', { level: 'info', data: 'first' }, 1);
    logs.note('s', 'Declined its request for input', 'warning', 2);
    for (let i = 0; i < MAX_LOG_ENTRIES * 2; i++) logs.add('s', { level: 'info', data: `m${i}` }, 3 + i);
    const list = logs.list('s');
    expect(list).toHaveLength(MAX_LOG_ENTRIES + 1);
    expect(list[0]).toEqual({ at: 2, level: 'warning', logger: 'MCP Agent', text: 'Declined its request for input' });
    expect(list.at(-1)?.text).toBe(`m${MAX_LOG_ENTRIES * 2 - 1}`);
  });

  it('keep the newest of their own, and go with the server', () => {
    const logs = new ServerLogs();
    for (let i = 0; i < MAX_APP_NOTES + 5; i++) logs.note('s', `note ${i}`, 'warning', i);
    expect(logs.list('s')).toHaveLength(MAX_APP_NOTES);
    expect(logs.list('s')[0]?.text).toBe('note 5');
    logs.clear('s');
    expect(logs.list('s')).toEqual([]);
  });
});
