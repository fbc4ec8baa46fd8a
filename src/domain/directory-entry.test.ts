import { describe, expect, it } from 'vitest';
import { DIRECTORY_LIMITS, parseDirectoryPage } from './directory-entry';

const entry = (name: string, extra: Record<string, unknown> = {}) => ({
  server: { name, remotes: [{ type: 'streamable-http', url: 'https://x.example.com/mcp' }], ...extra },
});

describe('directory entries from a registry (untrusted input)', () => {
  it('shows at most 100 servers of a page and says how many more were left out', () => {
    const page = parseDirectoryPage({ servers: Array.from({ length: 10_000 }, (_, i) => entry(`io.x/s${i}`)) });
    expect(page.entries).toHaveLength(DIRECTORY_LIMITS.entriesPerPage);
    expect(page.skipped).toEqual([{ name: '9900 more', reason: 'a page shows at most 100 servers' }]);
  });

  it('cuts long descriptions and takes out control and direction-override characters', () => {
    const [shown] = parseDirectoryPage({
      servers: [entry('io.x/s', { title: 'Safe\u202Eexe.txt', description: `${'d'.repeat(2000)}\u0007` })],
    }).entries;
    expect(shown?.title).toBe('Safe exe.txt');
    expect(shown?.description).toHaveLength(DIRECTORY_LIMITS.descriptionChars);
    expect(shown?.description.endsWith('…')).toBe(true);
  });

  it('reads the older API too (servers listed directly, metadata.next_cursor), and refuses what is no page', () => {
    const page = parseDirectoryPage({
      servers: [{ name: 'io.x/old', remotes: [{ type: 'sse', url: 'https://old.example.com/sse' }] }],
      metadata: { next_cursor: 'abc' },
    });
    expect(page.entries[0]?.remotes).toEqual([{ transport: 'sse', url: 'https://old.example.com/sse', headers: [] }]);
    expect(page.nextCursor).toBe('abc');
    expect(() => parseDirectoryPage('<html>')).toThrow('The answer is not a server registry page');
  });
});
