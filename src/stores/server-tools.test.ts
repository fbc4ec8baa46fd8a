import { describe, expect, it } from 'vitest';
import type { ToolOverride } from '../domain/server-config';
import type { RegisteredServer } from '../mcp/registry';
import { enabledToolCount, serverToolViews } from './server-tools';

const tools = ['add', 'sub', 'mul', 'div'].map((name) => ({ name, description: `${name}s`, inputSchema: {} }));
const server = (
  scope: 'app' | 'user',
  toolOverrides: Record<string, ToolOverride>,
  personalToolOverrides: Record<string, ToolOverride> = {},
) =>
  ({
    scope,
    config: { toolOverrides },
    catalog: { tools },
    personalToolOverrides,
  }) as unknown as RegisteredServer;

describe('enabledToolCount', () => {
  it("counts the tools on as the Servers panel's views do, for the person's and the deployer's switches", () => {
    const cases = [
      server('user', {}),
      server('user', { sub: { enabled: false }, mul: { description: 'times' }, gone: { enabled: false } }),
      server('app', { div: { enabled: false } }, { add: { enabled: false }, div: { enabled: true } }),
    ];
    expect(cases.map(enabledToolCount)).toEqual([4, 3, 2]);
    expect(cases.map((s) => serverToolViews(s).filter((view) => view.isEnabled).length)).toEqual([4, 3, 2]);
  });
});
