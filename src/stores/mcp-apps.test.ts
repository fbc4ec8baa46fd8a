// Which app a tool card shows: the one the call's tool declared when it ran, kept with the call (the red team's server
// added an app to an always-allowed tool, and its earlier results began to show it).
import { describe, expect, it } from 'vitest';
import { FakeRegistry, toolDefinition } from '../../test/fakes/fake-registry';
import { createStore } from 'zustand/vanilla';
import { createMcpApps } from './mcp-apps';
import { countingSignal } from '../../test/fakes/counting-signal';

async function appsWithDice(enabledServerIds: readonly string[] = ['dice'], opened: string[] = []) {
  const registry = new FakeRegistry();
  await registry.add({ id: 'dice', name: 'Dice', url: 'https://dice.example/mcp' }, [
    toolDefinition('roll', { _meta: { ui: { resourceUri: 'ui://dice/app.html' } } }),
  ]);
  const { store, actions } = createMcpApps({
    // Not reached by appOf.
    turns: {} as never,
    // The open thread, with the servers on given.
    chat: createStore(() => ({ activeThreadId: 'T', threads: [{ id: 'T', enabledServerIds }] })) as never,
    chatActions: {} as never,
    registry,
    mount: () => {
      throw new Error('no frames in this test');
    },
    openExternal: (url) => void opened.push(url),
    newId: () => 'id',
    now: Date.now,
  });
  return Object.assign(actions, { store });
}

describe('the app of a tool call’s result', () => {
  it('is the app the tool declared when the call ran; a result from before the tool declared one shows none', async () => {
    const apps = await appsWithDice();
    expect(apps.appOf('mcp__dice__roll', 'ui://dice/app.html')).toEqual({
      serverId: 'dice',
      serverName: 'Dice',
      origin: 'https://dice.example',
      uri: 'ui://dice/app.html',
    });
    // The call ran while the tool declared no app: the tool's app today does not reach back to it.
    expect(apps.appOf('mcp__dice__roll', undefined)).toBeUndefined();
    // Nor does an app the tool declares instead of the one kept with the call.
    expect(apps.appOf('mcp__dice__roll', 'ui://dice/other.html')).toBeUndefined();
  });

  it('is none while the server of the tool is off in the open thread', async () => {
    const apps = await appsWithDice(['other']);
    expect(apps.appOf('mcp__dice__roll', 'ui://dice/app.html')).toBeUndefined();
  });
});

describe("an app's requests answered by the person (review: listeners on the frame's teardown signal)", () => {
  it("leave no listener on the frame's signal once answered, however many the app sends", async () => {
    const opened: string[] = [];
    const apps = await appsWithDice(['dice'], opened);
    const app = { serverId: 'dice', serverName: 'Dice', origin: 'https://dice.example', uri: 'ui://dice/app.html' };
    const frame = countingSignal();
    const from = { threadId: 'T', signal: frame.signal };
    for (let i = 0; i < 5; i++) {
      const linked = apps.openLink(app, `https://dice.example/rules/${i}`, from);
      const declined = apps.sendMessage(app, `Roll ${i}`, from);
      const [link, message] = apps.store.getState().confirmations;
      link!.answer(true);
      message!.answer(false);
      expect([await linked, await declined]).toEqual([true, false]);
    }
    expect(opened).toHaveLength(5);
    expect(frame.listeners()).toBe(0);
  });
});
