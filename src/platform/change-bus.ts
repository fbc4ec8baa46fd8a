/** What changed in storage, announced so that every tab's stores can refresh. */
export type StoreName = 'appConfig' | 'profiles' | 'servers' | 'threads' | 'messages' | 'catalog' | 'credentials';

export interface Change {
  readonly store: StoreName;
  readonly profileId?: string;
  readonly threadId?: string;
  readonly key?: string;
  /** true when the change came from another tab. */
  readonly isRemote?: boolean;
}

export type ChangeListener = (change: Change) => void;

/** Publishes storage changes to listeners in this tab and in the other tabs of the same origin. */
export interface ChangeBus {
  publish(change: Change): void;
  subscribe(listener: ChangeListener): () => void;
  close(): void;
}

/** The BroadcastChannel this origin's tabs tell each other of stored changes on. */
export const CHANGE_CHANNEL = 'mcp-agent-changes';

/** A bus over BroadcastChannel; works in this tab alone when the channel is unavailable. */
export function createChangeBus(channel: BroadcastChannel | undefined): ChangeBus {
  const listeners = new Set<ChangeListener>();
  const deliver = (change: Change) => {
    for (const listener of listeners) listener(change);
  };
  const onMessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    if (isChange(data)) deliver({ ...data, isRemote: true });
  };
  channel?.addEventListener('message', onMessage);
  return {
    publish(change) {
      deliver({ ...change, isRemote: false });
      channel?.postMessage({ ...change, isRemote: undefined });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      channel?.removeEventListener('message', onMessage);
      channel?.close();
    },
  };
}

const STORE_NAMES: ReadonlySet<string> = new Set<StoreName>([
  'appConfig',
  'profiles',
  'servers',
  'threads',
  'messages',
  'catalog',
  'credentials',
]);

function isChange(value: unknown): value is Change {
  return typeof value === 'object' && value !== null && STORE_NAMES.has(String((value as { store?: unknown }).store));
}
