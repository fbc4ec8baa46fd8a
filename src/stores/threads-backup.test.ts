// Threads backup: "Export all threads" in one browser, "Import threads" in another (threads-backup.ts).
import { describe, expect, it } from 'vitest';
import {
  fileText,
  IMAGE_BYTES,
  okReport,
  say,
  texts,
  threadsBackupHarness,
} from '../../test/fakes/threads-backup-harness';
import { exportThreadJson } from '../agent/export-thread';
import { ThreadsFile } from '../domain/threads-backup-file';
import { API_KEY_SLOT, MODEL_API_OWNER } from '../storage/vault';
import { exportAllThreads, importThreads } from './threads-backup';

const { browser, tripThread } = threadsBackupHarness();

describe('Export all threads', () => {
  it('holds every branch, compaction and image of each thread, leaves out deleted ones, approvals and secrets', async () => {
    const here = await browser();
    const trip = await tripThread(here);
    const gone = await here.storage.threads.create(here.profileId, { title: 'Deleted, waiting for Undo' });
    await here.storage.threads.markDeleted(gone.id, true);
    await here.storage.vault.put(
      { profileId: here.profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT },
      'sk-ant-SECRET-KEY',
    );

    const file = await exportAllThreads(here);
    const text = fileText(file);

    expect(file.files.map((f) => f.name)).toEqual(['mcp-agent-threads-2026-11-24.json']);
    expect(text).not.toContain('SECRET');
    const parsed = ThreadsFile.parse(JSON.parse(text));
    expect(parsed.threads.map((t) => t.thread.title)).toEqual(['Trip']);
    const [entry] = parsed.threads;
    expect(texts(entry!.messages)).toEqual(['Plan a trip', 'Where to?', 'Paris', 'Paris it is', 'Rome', 'Rome it is']);
    expect(entry!.compactions.map((c) => c.summary)).toEqual(['The person plans a trip.']);
    expect(entry!.attachments).toEqual([
      {
        id: `${trip.id}-image`,
        name: 'map.png',
        mimeType: 'image/png',
        data: Buffer.from(IMAGE_BYTES).toString('base64'),
      },
    ]);
    expect(entry!.thread).not.toHaveProperty('approvals');
    expect(entry!.thread).not.toHaveProperty('profileId');
    expect(text).not.toContain('samplingAllowed');
  });
});

describe('Export all threads, larger than an import reads', () => {
  it('is split into files an import reads each, which together bring every thread back', async () => {
    const there = await browser();
    for (const title of ['One', 'Two', 'Three']) await tripThread(there, title);
    const whole = fileText(await exportAllThreads(there));
    // Room for about two threads a file.
    const backup = await exportAllThreads(there, Math.ceil(whole.length * 0.7));
    expect(backup.files.map((f) => f.name)).toEqual([
      'mcp-agent-threads-2026-11-24-part-1-of-2.json',
      'mcp-agent-threads-2026-11-24-part-2-of-2.json',
    ]);
    expect(backup).toMatchObject({ threads: 3, tooLarge: [] });
    const here = await browser();
    const imported = [];
    for (const file of backup.files) {
      const text = file.parts.join('');
      expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(Math.ceil(whole.length * 0.7));
      imported.push(...okReport(await importThreads(here, text)).imported);
    }
    expect(imported).toHaveLength(3);
    const titles = (await here.storage.threads.list(here.profileId)).items.map((t) => t.title);
    expect(titles.sort()).toEqual(['One', 'Three', 'Two']);
  });

  it('names a thread larger alone than a file may be, and leaves it out rather than make a file no import reads', async () => {
    const there = await browser();
    await tripThread(there, 'Small');
    const big = await there.storage.threads.create(there.profileId, { title: 'Huge' });
    await there.storage.messages.append(big.id, say('user', 'x'.repeat(50_000)));
    const backup = await exportAllThreads(there, 20_000);
    expect(backup.tooLarge).toEqual(['Huge']);
    expect(backup.threads).toBe(1);
    const saved = ThreadsFile.parse(JSON.parse(fileText(backup)));
    expect(saved.threads.map((t) => t.thread.title)).toEqual(['Small']);
  });
});

describe('Import threads', () => {
  it('brings the threads into a fresh browser: both versions of an edited message, the image bytes, compactions', async () => {
    const there = await browser();
    const trip = await tripThread(there);
    const file = fileText(await exportAllThreads(there));
    const here = await browser();
    const changes: unknown[] = [];
    here.storage.changes.subscribe((change) => changes.push(change));

    const report = okReport(await importThreads(here, file));

    // The thread list is told once to reload.
    expect(changes).toEqual([{ store: 'threads', profileId: here.profileId, isRemote: false }]);
    expect(report.imported).toEqual(['Thread "Trip": 6 messages, 1 attachment']);
    expect(report.rejected).toEqual([]);
    const threads = (await here.storage.threads.list(here.profileId)).items;
    expect(threads.map((t) => [t.title, t.enabledServerIds, t.approvals])).toEqual([['Trip', ['weather-gone'], {}]]);
    const shown = await here.storage.messages.list(trip.id);
    expect(texts(shown.items)).toEqual(['Plan a trip', 'Where to?', 'Rome', 'Rome it is']);
    expect(texts(shown.offBranch)).toEqual(['Paris', 'Paris it is']);
    expect(shown.versions.get(shown.items[2]!.id)).toHaveLength(2);
    // The other version can be shown again, with its answer.
    await here.storage.messages.showBranch(trip.id, shown.offBranch[0]!.id);
    expect(texts((await here.storage.messages.list(trip.id)).items).slice(2)).toEqual(['Paris', 'Paris it is']);
    expect((await here.storage.compactions.list(trip.id)).items).toEqual(
      (await there.storage.compactions.list(trip.id)).items,
    );
    const blob = await here.storage.attachments.get(`${trip.id}-image`);
    expect(blob?.type).toBe('image/png');
    expect(new Uint8Array(await blob!.arrayBuffer())).toEqual(IMAGE_BYTES);
  });

  it('adds nothing when the same file is imported twice', async () => {
    const there = await browser();
    const trip = await tripThread(there);
    const file = fileText(await exportAllThreads(there));
    const here = await browser();
    okReport(await importThreads(here, file));

    const again = okReport(await importThreads(here, file));

    expect(again.imported).toEqual([]);
    expect(again.rejected).toEqual([{ subject: 'Thread "Trip"', reasons: ['already here'] }]);
    expect((await here.storage.threads.list(here.profileId)).items).toHaveLength(1);
    const shown = await here.storage.messages.list(trip.id);
    expect(shown.items.length + shown.offBranch.length).toBe(6);
  });

  it('skips a broken thread with its title and why, and imports the others', async () => {
    const there = await browser();
    await tripThread(there, 'First');
    await tripThread(there, 'Broken');
    await tripThread(there, 'Last');
    const data = JSON.parse(fileText(await exportAllThreads(there))) as {
      threads: { thread: { title: string }; messages: { parentId: string | null }[] }[];
    };
    data.threads.find((t) => t.thread.title === 'Broken')!.messages[3]!.parentId = 'no-such-message';
    const here = await browser();

    const report = okReport(await importThreads(here, JSON.stringify(data)));

    expect(report.rejected).toEqual([
      {
        subject: 'Thread "Broken"',
        reasons: [expect.stringMatching(/follows a message that is not in the file/)],
      },
    ]);
    expect((await here.storage.threads.list(here.profileId)).items.map((t) => t.title).sort()).toEqual([
      'First',
      'Last',
    ]);
  });

  it.each([
    ['a configuration export', '{"format":"mcp-agent-config","version":1,"servers":[]}', /Import configuration/],
    ['package.json', '{"name":"mcp-agent","version":"1.0.0","scripts":{}}', /not a threads backup/],
    ['a cut-short backup', '{"format":"mcp-agent-threads","version":1,"threads":[{"thr', /not valid JSON/],
    ['a newer backup', '{"format":"mcp-agent-threads","version":2,"threads":[]}', /newer version/],
    ['a backup without threads', '{"format":"mcp-agent-threads","version":1}', /no list of "threads"/],
  ])('refuses %s with one line and changes nothing', async (_kind, text, reason) => {
    const here = await browser();

    const report = await importThreads(here, text);

    if (report.ok) throw new Error('imported');
    expect(report.message).toMatch(reason);
    expect(report.message).not.toContain('\n');
    expect((await here.storage.threads.list(here.profileId)).items).toEqual([]);
  });

  it('refuses a file over 200 MB, saying the limit', async () => {
    const here = await browser();
    const report = await importThreads(here, ' '.repeat(200_000_001));
    expect(report.ok ? 'imported' : report.message).toMatch(/at most 200 MB\. Nothing was imported\./);
  });

  it('turns on only servers this profile has, within its limit, and a file cannot turn the spend cap off', async () => {
    const there = await browser();
    const trip = await tripThread(there);
    await there.storage.threads.update(trip.id, () => ({
      enabledServerIds: ['weather-gone', 'mail', 'files'],
      maxCostUsd: null,
    }));
    const here = await browser({ ids: ['mail', 'files', 'other'], max: 1 });

    const report = okReport(await importThreads(here, fileText(await exportAllThreads(there))));

    expect(report.imported).toEqual([
      'Thread "Trip": 6 messages, 1 attachment; servers not in this profile left off (weather-gone): add them, then switch them on in the thread; 1 of its 2 servers on (your servers-per-thread limit); its “no spend cap” was not taken: this profile\'s cap applies',
    ]);
    const stored = await here.storage.threads.get(trip.id);
    expect(stored?.enabledServerIds).toEqual(['mail']);
    expect(stored?.maxCostUsd).toBeUndefined();
  });

  it('refuses a thread whose message names a file stored here for another thread, and leaves that file alone', async () => {
    const here = await browser();
    const mine = await tripThread(here, 'Mine');
    const there = await browser();
    const other = await there.storage.threads.create(there.profileId, { title: 'Borrower' });
    const ref = { id: `${mine.id}-image`, name: 'map.png', mimeType: 'image/png', kind: 'image' as const, size: 4 };
    await there.storage.messages.append(
      other.id,
      say('user', 'Look', { attachments: [{ ...ref, source: { type: 'file' } }] }),
    );
    // One thread's export names the file without its bytes.
    const file = exportThreadJson(other, (await there.storage.messages.list(other.id)).items);

    const report = okReport(await importThreads(here, file));

    expect(report.imported).toEqual([]);
    expect(report.rejected).toEqual([
      {
        subject: 'Thread "Borrower"',
        reasons: [
          'one of its messages names a file stored here for another thread (without the file itself); it was not imported, so that file stays with its thread',
        ],
      },
    ]);
    expect(await here.storage.threads.get(other.id)).toBeUndefined();
    expect(await here.storage.attachments.get(`${mine.id}-image`)).toBeDefined();
  });

  it('refuses a thread whose compaction starts elsewhere than its message, and says so of one waiting for Undo here', async () => {
    const there = await browser();
    const trip = await tripThread(there);
    const data = JSON.parse(fileText(await exportAllThreads(there))) as {
      threads: { compactions: { firstKeptSeq: number }[] }[];
    };
    data.threads[0]!.compactions[0]!.firstKeptSeq = 99;
    const here = await browser();
    const bent = okReport(await importThreads(here, JSON.stringify(data)));
    expect(bent.rejected[0]?.reasons.join('; ')).toMatch(/^compaction \S+ starts at place 99, not at its message's$/);

    await tripThread(here, 'Trip here');
    const same = fileText(await exportAllThreads(there));
    okReport(await importThreads(here, same));
    await here.storage.threads.markDeleted(trip.id, true);
    const again = okReport(await importThreads(here, same));
    expect(again.rejected[0]?.reasons).toEqual([
      'it is here, deleted a moment ago and waiting for Undo; press Undo (or let it go) and import again',
    ]);
  });

  it("takes a single thread's export: its shown branch, attachments named without their files", async () => {
    const there = await browser();
    const trip = await tripThread(there);
    const file = exportThreadJson(trip, (await there.storage.messages.list(trip.id)).items);
    const here = await browser();

    const report = okReport(await importThreads(here, file));

    expect(report.imported).toEqual([
      'Thread "Trip": 4 messages, 1 attachment named without its file (a single-thread export holds none)',
    ]);
    expect(texts((await here.storage.messages.list(trip.id)).items)).toEqual([
      'Plan a trip',
      'Where to?',
      'Rome',
      'Rome it is',
    ]);
    expect((await here.storage.threads.get(trip.id))?.approvals).toEqual({});
  });

  it('keeps a thread that another profile of this browser has, and says so', async () => {
    const here = await browser();
    await tripThread(here);
    const file = fileText(await exportAllThreads(here));
    const other = await here.storage.profiles.create({ name: 'Work' });

    const report = okReport(await importThreads({ ...here, profileId: other.id }, file));

    expect(report.rejected).toEqual([
      { subject: 'Thread "Trip"', reasons: [expect.stringMatching(/in another profile of this browser/)] },
    ]);
    expect((await here.storage.threads.list(other.id)).items).toEqual([]);
  });

  it('a thread with no messages yet is imported too', async () => {
    const there = await browser();
    await there.storage.threads.create(there.profileId, { title: 'Empty' });
    const here = await browser();
    const report = okReport(await importThreads(here, fileText(await exportAllThreads(there))));
    expect(report.imported).toEqual(['Thread "Empty": 0 messages']);
  });

  it("lists an imported thread with its shown branch's line, whatever line the file holds", async () => {
    const there = await browser();
    const trip = await tripThread(there);
    // A backup made before the line followed the version shown: it holds the hidden branch's answer.
    await there.storage.threads.update(trip.id, () => ({ preview: 'Paris it is' }));
    const here = await browser();
    okReport(await importThreads(here, fileText(await exportAllThreads(there))));
    expect((await here.storage.threads.get(trip.id))?.preview).toBe('Rome it is');
  });

  it('an imported thread goes on: a message sent in it follows its shown branch', async () => {
    const there = await browser();
    const trip = await tripThread(there);
    const here = await browser();
    okReport(await importThreads(here, fileText(await exportAllThreads(there))));
    await here.storage.messages.append(trip.id, say('user', 'And Naples?'));
    expect(texts((await here.storage.messages.list(trip.id)).items).at(-1)).toBe('And Naples?');
  });
});
