import { describe, expect, it } from 'vitest';
import { buildIndexInChunks } from './chunked-build';
import type { SearchableTool } from './tool-document';
import { createToolIndex, scopeForTools } from './tool-index';

const tool = (serverId: string, i: number): SearchableTool => ({
  serverId,
  serverName: serverId,
  toolName: `tool_${i}`,
  modelName: `mcp__${serverId}__tool_${i}`,
  description: `Tool number ${i} of ${serverId}, about ${i % 2 ? 'weather' : 'files'}.`,
  definition: { name: `tool_${i}`, inputSchema: { type: 'object' } },
});
const TOOLS = [
  ...Array.from({ length: 25 }, (_, i) => tool('alpha', i)),
  ...Array.from({ length: 12 }, (_, i) => tool('beta', i)),
];

describe('buildIndexInChunks', () => {
  it('yields between chunks and ends with the same index as a direct build', async () => {
    let yields = 0;
    const index = await buildIndexInChunks(TOOLS, { chunkSize: 10, yield: async () => void yields++ });
    expect(yields).toBe(3);
    const direct = createToolIndex();
    direct.upsertServer('alpha', TOOLS.slice(0, 25));
    direct.upsertServer('beta', TOOLS.slice(25));
    const scope = scopeForTools(TOOLS);
    expect(index.size).toBe(37);
    expect(index.search('weather beta', { scope }).matches).toEqual(direct.search('weather beta', { scope }).matches);
  });

  it('replaces the servers it builds in an existing index', async () => {
    const index = createToolIndex();
    index.upsertServer('alpha', [tool('alpha', 99)]);
    index.upsertServer('gamma', [tool('gamma', 1)]);
    await buildIndexInChunks(TOOLS.slice(0, 25), { index, chunkSize: 7, yield: async () => undefined });
    expect(index.size).toBe(26);
    expect(index.tools(new Set(['alpha'])).map((t) => t.toolName)).not.toContain('tool_99');
  });

  it('stops when aborted, leaving out the server it was in the middle of', async () => {
    const controller = new AbortController();
    const index = await buildIndexInChunks(TOOLS, {
      chunkSize: 10,
      signal: controller.signal,
      yield: async () => controller.abort(),
    });
    expect(index.size).toBe(0);
  });
});

describe('buildIndexInChunks on a slow device', () => {
  it('ends a chunk when its time budget runs out, before the chunk size is reached', async () => {
    // Each look at the injected clock advances it by 1 ms: a device where 16 tools take a millisecond.
    let clock = 0;
    let yields = 0;
    const many = Array.from({ length: 320 }, (_, i) => tool('alpha', i));
    const index = await buildIndexInChunks(many, {
      chunkSize: 500,
      budgetMs: 4,
      now: () => clock++,
      yield: async () => void yields++,
    });
    expect(index.size).toBe(320);
    // 320 tools in steps of 16, a chunk ending at its 4th step: 5 chunks (the chunk size alone would give none).
    expect(yields).toBe(5);
  });
});
