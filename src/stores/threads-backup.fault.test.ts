// Threads import on a full disk (threads-backup.ts): it stops, says what was imported, and leaves nothing half-written.
import { afterEach, describe, expect, it } from 'vitest';
import { failObjectStore } from '../../test/fakes/idb-faults';
import { fileText, okReport, threadsBackupHarness } from '../../test/fakes/threads-backup-harness';
import { exportAllThreads, importThreads } from './threads-backup';

const { browser, tripThread } = threadsBackupHarness();
let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe('Import threads on a full disk', () => {
  it('stops at the thread the disk refused, reports those imported, and stores nothing of that thread', async () => {
    const there = await browser();
    const first = await tripThread(there, 'First');
    const second = await tripThread(there, 'Second');
    const third = await tripThread(there, 'Third');
    const file = fileText(await exportAllThreads(there));
    const here = await browser();
    // The disk fills up at the second thread's image, after its messages were written in the same transaction.
    restore = failObjectStore(
      'attachments',
      'add',
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
      (value) => (value as { threadId?: string }).threadId === second.id,
    );

    const report = okReport(await importThreads(here, file));

    // The list is newest first: Third, Second, First.
    expect(report.imported).toEqual(['Thread "Third": 6 messages, 1 attachment']);
    expect(report.stopped).toMatch(
      /storage is full: the import stopped at Thread "Second", which was not imported, nor was the thread after it\./,
    );
    expect((await here.storage.threads.list(here.profileId)).items.map((t) => t.id)).toEqual([third.id]);
    const half = await here.storage.messages.list(second.id);
    expect([...half.items, ...half.offBranch]).toEqual([]);
    expect((await here.storage.compactions.list(second.id)).items).toEqual([]);
    expect(await here.storage.threads.get(first.id)).toBeUndefined();

    // With space again, the same file brings the rest and skips what is here.
    restore();
    restore = undefined;
    const again = okReport(await importThreads(here, file));
    expect(again.imported.map((line) => line.split(':')[0])).toEqual(['Thread "Second"', 'Thread "First"']);
    expect(again.rejected).toEqual([{ subject: 'Thread "Third"', reasons: ['already here'] }]);
  });
});
