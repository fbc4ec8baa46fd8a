import type { UpgradeTransaction } from './database-schema';

/**
 * Schema step for branches (issue #22): every stored message names the message it follows (`parentId`), which in a
 * thread stored before branches is the one stored before it (null for the first). Nothing else changes, so each old
 * thread reads as a single branch; records are read as they are (a corrupt one stays for the app to report).
 */
export async function linkMessageParents(tx: UpgradeTransaction): Promise<void> {
  const messages = tx.objectStore('messages');
  let threadId: unknown;
  let previousId: string | null = null;
  // The index walks each thread's messages in seq order, one thread after another.
  for (let cursor = await messages.index('byThreadSeq').openCursor(); cursor; cursor = await cursor.continue()) {
    const message = cursor.value;
    if (message.threadId !== threadId) {
      threadId = message.threadId;
      previousId = null;
    }
    if (message.parentId === undefined) await cursor.update({ ...message, parentId: previousId });
    previousId = message.id;
  }
}
