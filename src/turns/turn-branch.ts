import type { TurnPersistence } from '../agent/turn-deps';
import type { Storage } from '../storage/storage';

/**
 * Where one turn reads and writes: the branch it started on (after `after`, or the shown branch's end when undefined),
 * whatever branch a person shows meanwhile; `has` tells whether a message is on it.
 */
export function turnBranch(storage: Storage, threadId: string, after: string | null | undefined) {
  let tip = after;
  const onBranch = new Set<string>();
  const persistence: TurnPersistence = {
    history: async () => {
      const items =
        tip === undefined
          ? (await storage.messages.list(threadId)).items
          : tip === null
            ? []
            : (await storage.messages.listTo(threadId, tip)).items;
      onBranch.clear();
      for (const message of items) onBranch.add(message.id);
      if (tip === undefined) tip = items.at(-1)?.id ?? null;
      return items;
    },
    append: async (message) => {
      const stored = await storage.messages.append(threadId, message, tip);
      tip = stored.id;
      onBranch.add(stored.id);
      return stored;
    },
    update: (id, change) => storage.messages.update(id, change),
  };
  return { persistence, has: (id: string) => onBranch.has(id) };
}
