import { describe, expect, it } from 'vitest';
import { NetworkFailure, guardedFetch } from './network';

function recordingFetch() {
  const seen: { url: string; headers: Headers }[] = [];
  const fetchFn = async (input: string | URL, init?: RequestInit) => {
    seen.push({ url: String(input), headers: new Headers(init?.headers) });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { seen, fetchFn };
}

describe('guardedFetch', () => {
  it("sends bearer tokens and secret headers only to the server's own origin", async () => {
    const { seen, fetchFn } = recordingFetch();
    const guarded = guardedFetch(fetchFn, {
      serverOrigin: 'https://mcp.example',
      secretHeaders: ['x-api-key'],
      onNetworkFailure: () => undefined,
    });
    const headers = { authorization: 'Bearer secret-token', 'x-api-key': 'k', accept: 'application/json' };
    await guarded('https://mcp.example/mcp', { headers });
    await guarded('https://auth.other.example/token', { headers });
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer secret-token');
    expect(seen[0]?.headers.get('x-api-key')).toBe('k');
    expect(seen[1]?.headers.get('authorization')).toBeNull();
    expect(seen[1]?.headers.get('x-api-key')).toBeNull();
    expect(seen[1]?.headers.get('accept')).toBe('application/json');
  });

  it('keeps Basic client authentication for a token endpoint on another origin', async () => {
    const { seen, fetchFn } = recordingFetch();
    const guarded = guardedFetch(fetchFn, {
      serverOrigin: 'https://mcp.example',
      secretHeaders: [],
      onNetworkFailure: () => undefined,
    });
    await guarded('https://auth.other.example/token', { headers: { authorization: 'Basic Y2xpZW50OnNlY3JldA==' } });
    expect(seen[0]?.headers.get('authorization')).toBe('Basic Y2xpZW50OnNlY3JldA==');
  });

  it('turns a request that gets no response into a NetworkFailure and reports it', async () => {
    const failures: NetworkFailure[] = [];
    const guarded = guardedFetch(
      async () => {
        throw new TypeError('Failed to fetch');
      },
      { serverOrigin: 'https://mcp.example', secretHeaders: [], onNetworkFailure: (f) => failures.push(f) },
    );
    await expect(guarded('https://mcp.example/mcp')).rejects.toBeInstanceOf(NetworkFailure);
    expect(failures).toHaveLength(1);
  });
});
