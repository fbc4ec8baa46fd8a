// A tool switched off in the servers manager: the model is never offered it, and a call to it never reaches the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerActions } from '../../src/stores/servers-store';
import { sendMessage, type TurnRunnerDeps } from '../../src/turns/turn-runner';
import { startCalcApp, type CalcApp } from '../fakes/calc-app';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import type { TestStorage } from '../fakes/test-storage';
import type { TestMcpServer } from '../fixtures/test-mcp-server';

let calc: CalcApp | undefined;
let server: TestMcpServer;
let api: FakeAnthropic;
let opened: TestStorage;
let actions: ServerActions;
let deps: TurnRunnerDeps;

beforeAll(async () => {
  // Every tool goes with each call (the Calc app defers none), so the request shows exactly what the model is offered.
  calc = await startCalcApp();
  ({ server, actions } = calc);
  ({ api, opened, deps } = calc.app);
});

afterAll(async () => {
  await calc?.close();
});

describe('a tool switched off in the servers manager', () => {
  it('is not offered to the model, and a call the model makes anyway never reaches the server', async () => {
    const thread = await opened.storage.threads.create(deps.profileId, { title: 'Sums', enabledServerIds: ['calc'] });
    const turn = (text: string) =>
      sendMessage(deps, thread.id, text, {
        askApproval: async () => 'allow-once',
        signal: new AbortController().signal,
      });

    api.script({ text: 'Ready.' });
    await turn('What can you do?');
    expect(api.requests.at(-1)?.toolNames).toContain('mcp__calc__add');

    await actions.changeTool('calc', 'add', { enabled: false });
    await actions.changeTool('calc', 'slow', { description: 'Waits a while (my words).' });
    api.script({ toolUses: [{ name: 'mcp__calc__add', input: { a: 1, b: 2 } }] }, { text: 'I could not add.' });
    await turn('Add 1 and 2');
    const offered = api.requests.at(-2)!;
    expect(offered.toolNames).not.toContain('mcp__calc__add');
    expect(offered.body.tools?.find((t) => 'name' in t && t.name === 'mcp__calc__slow')).toMatchObject({
      description: 'Waits a while (my words).',
    });
    expect(server.requests.filter((r) => r.rpcMethod === 'tools/call')).toEqual([]);
    expect(JSON.stringify(api.requests.at(-1)?.body.messages)).toContain(
      'mcp__calc__add is switched off in the settings of its server',
    );
  });
});
