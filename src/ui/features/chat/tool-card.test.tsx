import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ToolCallTrace } from '../../../domain/trace';
import { ServerNamesContext } from './server-names-context';
import { ToolCard } from './tool-card';

const use = { type: 'tool_use' as const, id: 'toolu_1', name: 'mcp__calc__add', input: { a: 1, b: 2 } };
const trace: ToolCallTrace = {
  kind: 'tool-call',
  toolUseId: 'toolu_1',
  serverId: 'calc',
  serverName: 'Calculator',
  tool: 'mcp__calc__add',
  arguments: { a: 1, b: 2 },
  resultSummary: '3',
  isError: false,
  durationMs: 12,
};
const nameShown = (names: ReadonlyMap<string, string>) =>
  renderToStaticMarkup(
    <ServerNamesContext.Provider value={names}>
      <ToolCard use={use} trace={trace} />
    </ServerNamesContext.Provider>,
  ).match(/<span class="muted">([^<]*) · <\/span>/)?.[1];

describe("a tool call's card", () => {
  it('names the server as it is now, and a removed server by the name it had when the call was made', () => {
    expect(nameShown(new Map([['calc', 'Calc (renamed)']]))).toBe('Calc (renamed)');
    expect(nameShown(new Map())).toBe('Calculator');
  });
});
