// The parts a sampling test runs on: server-everything on 127.0.0.1 (registered under each id given), the contract fake
// of the Messages API, real storage, the registry with the sampling store as its handler, and the chat store whose
// running turn a server's request joins.
import { serverOrigin } from '../../src/domain/server-trust';
import type { Registry } from '../../src/mcp/registry';
import { createChat } from '../../src/stores/chat-store';
import { createSamplingRequests, samplingTurnFinder } from '../../src/stores/sampling-requests';
import { trackServerCalls } from '../../src/stores/server-calls';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startTestApp } from '../fakes/test-app';
import type { TestStorage } from '../fakes/test-storage';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';

export interface SamplingRig {
  readonly everything: ServerEverything;
  readonly api: FakeAnthropic;
  readonly opened: TestStorage;
  readonly registry: Registry;
  readonly chat: ReturnType<typeof createChat>;
  readonly samplings: ReturnType<typeof createSamplingRequests>;
  close(): Promise<void>;
}

/** Starts everything, registers server-everything once per `{ id, name }` and connects each. */
export async function startSamplingRig(servers: readonly { id: string; name: string }[]): Promise<SamplingRig> {
  let find: Parameters<typeof createSamplingRequests>[1] = () => Promise.resolve(undefined);
  let count = 0;
  const samplings = createSamplingRequests(
    () => `sampling-${++count}`,
    (server, request) => find(server, request),
    // The app's notes go into the server's log, which the registry (made just below) keeps.
    { note: (...args) => registry.note(...args) },
  );
  const [everything, app] = await Promise.all([
    startServerEverything({ mode: 'streamableHttp' }),
    startTestApp({ apiKey: 'sk-ant-sampling', toolSearch: { deferral: 'never' }, sampling: samplings.sampling }),
  ]);
  const { api, opened, registry, deps } = app;
  // As the app does: a server may sample only while a call of it runs.
  const calls = trackServerCalls(registry);
  const chat = createChat({ ...deps, registry: calls.registry });
  find = samplingTurnFinder(
    () => chat.actions.runningTurn(),
    deps,
    (id) => registry.get(id) && serverOrigin(registry.get(id)!.config.url),
    calls.isTurnCalling,
  );
  for (const { id, name } of servers) await registry.register({ id, name, url: everything.url }, 'user');
  await Promise.all(servers.map(({ id }) => registry.connect(id)));
  return {
    everything,
    api,
    opened,
    registry,
    chat,
    samplings,
    async close() {
      chat.dispose();
      await app.close();
      await everything.stop();
    },
  };
}

/** Resolves once the store holds what `pick` finds. */
export function until<S, T>(
  store: { getState(): S; subscribe(listener: (state: S) => void): () => void },
  pick: (state: S) => T | undefined,
): Promise<T> {
  return new Promise((resolve) => {
    const found = pick(store.getState());
    if (found !== undefined) return resolve(found);
    const stop = store.subscribe((state) => {
      const next = pick(state);
      if (next !== undefined) {
        stop();
        resolve(next);
      }
    });
  });
}

/** Opens a new thread with these servers on; resolves to its id. */
export async function newThreadWith(rig: SamplingRig, serverIds: string[]): Promise<string> {
  await rig.chat.actions.newThread();
  const threadId = rig.chat.store.getState().activeThreadId!;
  await rig.chat.actions.setThreadServers(threadId, serverIds);
  return threadId;
}

/**
 * Sends a message in the open thread whose model calls `serverId`'s sampling tool with `input` (the call allowed
 * once), then answers as `then` scripts; resolves to the sent turn once the tool call is approved.
 */
export async function sendSamplingTurn(
  rig: SamplingRig,
  serverId: string,
  input: Record<string, unknown>,
  ...then: Parameters<FakeAnthropic['script']>
): Promise<{ sent: ReturnType<SamplingRig['chat']['actions']['send']> }> {
  rig.api.script({ toolUses: [{ name: `mcp__${serverId}__trigger-sampling-request`, input }] }, ...then);
  const sent = rig.chat.actions.send(`Ask ${serverId} to sample`);
  const approval = await until(rig.chat.store, (s) => s.pendingApprovals[0]);
  approval.answer('allow-once');
  return { sent };
}
