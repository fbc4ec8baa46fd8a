import { describe, expect, it } from 'vitest';
import { McpClientUnavailableError } from '../domain/mcp-errors';
import { ServerConfig } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import { kitLoader, LazyConnection, type ConnectionKit } from './lazy-kit';

const config = ServerConfig.parse({ id: 's', name: 'S', url: 'http://127.0.0.1:1/mcp' });

describe('the connection code loaded on first use', () => {
  it('turns a chunk that fails to load into an error status and a failed call, then tries again', async () => {
    let attempts = 0;
    const loader = kitLoader(() => {
      attempts++;
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    });
    const states: ServerState[] = [];
    const connection = new LazyConnection(
      config,
      () => undefined as never,
      (state) => states.push(state),
      loader.load,
    );
    expect(connection.current.status).toBe('disconnected');

    await expect(connection.ensureConnected()).rejects.toBeInstanceOf(McpClientUnavailableError);
    expect(connection.current).toMatchObject({ status: 'error', lastError: { kind: 'client-unavailable' } });
    expect(states.map((s) => s.status)).toEqual(['error']);

    const result = await connection.callTool('echo', {});
    expect(result).toMatchObject({ isError: true, failure: { kind: 'connection' } });
    expect(result.failure?.message).toContain('could not be loaded');
    expect(attempts).toBe(2);
    expect(loader.loaded()).toBeUndefined();
  });

  it('creates the real connection once the code has loaded, with the latest config', async () => {
    const kit = {} as ConnectionKit;
    const loader = kitLoader(() => Promise.resolve(kit));
    const created: ServerConfig[] = [];
    const real = {
      current: { status: 'connected' },
      callTool: () => Promise.resolve({ content: [], isError: false, durationMs: 1 }),
    };
    const connection = new LazyConnection(
      config,
      (_, current) => (created.push(current), real as never),
      () => undefined,
      loader.load,
    );
    const renamed = { ...config, name: 'Renamed' };
    await connection.reconfigure(renamed);
    expect((await connection.callTool('echo', {})).isError).toBe(false);
    expect(created).toEqual([renamed]);
    expect(connection.current.status).toBe('connected');
    expect(loader.loaded()).toBe(kit);
  });
});
