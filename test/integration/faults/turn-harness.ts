// The app below the UI for fault tests: the shared test app (real storage, registry, fake API) with the chat store.
import { BEARER_SLOT } from '../../../src/domain/server-config';
import type { Registry } from '../../../src/mcp/registry';
import { createChat, type ChatActions, type ChatStore } from '../../../src/stores/chat-store';
import type { TurnRunnerDeps } from '../../../src/turns/turn-runner';
import type { FakeAnthropic } from '../../fakes/fake-anthropic';
import { cleanupAfterEach } from '../../fakes/cleanup';
import { startTestApp, type TestAppOptions } from '../../fakes/test-app';
import type { TestStorage } from '../../fakes/test-storage';

export const API_KEY = 'sk-ant-faults-test-key';

export interface FaultApp {
  readonly opened: TestStorage;
  readonly api: FakeAnthropic;
  readonly registry: Registry;
  readonly deps: TurnRunnerDeps;
  readonly chat: { readonly store: ChatStore; readonly actions: ChatActions; dispose(): void };
  readonly profileId: string;
  /** Adds a server as the servers panel does: registered, and its bearer token (if any) in the vault. */
  addServer(id: string, url: string, token?: string): Promise<void>;
  close(): Promise<void>;
}

/** Retries of the SDK default to 0 here (tests of the message a person sees); the app's default is 2. */
export type FaultAppOptions = Pick<TestAppOptions, 'maxRetries' | 'timing' | 'locks' | 'storage' | 'api'>;

/** Starts the fake API and wires storage, registry, tool index, turn runner and chat store like the app does. */
export async function startFaultApp(options: FaultAppOptions = {}): Promise<FaultApp> {
  const app = await startTestApp({ ...options, apiKey: API_KEY });
  const { opened, api, registry, deps, profile } = app;
  const chat = createChat(deps);
  return {
    opened,
    api,
    registry,
    deps,
    chat,
    profileId: profile.id,
    async addServer(id, url, token) {
      await registry.register({ id, name: id, url, ...(token ? { auth: { kind: 'bearer' as const } } : {}) }, 'user');
      await opened.storage.profiles.saveServer(profile.id, {
        id,
        name: id,
        url,
        ...(token ? { auth: { kind: 'bearer' as const } } : {}),
      });
      if (token) await opened.storage.vault.put({ profileId: profile.id, owner: id, slot: BEARER_SLOT }, token);
    },
    async close() {
      chat.dispose();
      await app.close();
    },
  };
}

/**
 * For a test file (call at its top level): `app` starts a fault app and `own` takes a started server, both closed
 * after the test; `cleanup` adds other steps.
 */
export function faultAppsPerTest() {
  const cleanup = cleanupAfterEach();
  const app = async (options?: FaultAppOptions): Promise<FaultApp> => {
    const started = await startFaultApp(options);
    cleanup(() => started.close());
    return started;
  };
  const own = async <T extends { stop(): Promise<void> }>(server: Promise<T>): Promise<T> => {
    const started = await server;
    cleanup(() => started.stop());
    return started;
  };
  return { cleanup, app, own };
}

/** The thread's messages as "role:status" plus their text, to compare what is kept. */
export async function storedMessages(
  app: FaultApp,
  threadId: string,
): Promise<{ role: string; status: string; text: string; error?: string }[]> {
  const { items } = await app.opened.storage.messages.list(threadId);
  return items.map((m) => ({
    role: m.role,
    status: m.status,
    text: m.blocks
      .map((b) =>
        b.type === 'text'
          ? b.text
          : b.type === 'tool_result'
            ? b.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
            : `[${b.type}]`,
      )
      .join(''),
    ...(m.error ? { error: m.error } : {}),
  }));
}
