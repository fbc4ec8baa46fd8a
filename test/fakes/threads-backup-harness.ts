// Threads backup (src/stores/threads-backup.ts) over real storage (fake-indexeddb): two browsers, each with a profile,
// and a thread as a person leaves it after months: an edited message (two branches), an image, a compaction.
import { afterEach } from 'vitest';
import type { NewMessage } from '../../src/domain/message';
import type { ThreadConfig } from '../../src/domain/thread-config';
import type { ThreadsBackupDeps, ThreadsImportReport } from '../../src/stores/threads-backup';
import { openTestStorage, type TestStorage } from './test-storage';

export const NOW = Date.parse('2026-11-24T10:00:00Z');
/** A PNG's first bytes and then every byte value, so a lossy round trip shows. */
export const IMAGE_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...Array.from({ length: 256 }, (_, i) => i)]);

export const say = (role: 'user' | 'assistant', text: string, extra: Partial<NewMessage> = {}): NewMessage => ({
  role,
  blocks: [{ type: 'text', text }],
  status: 'complete',
  ...extra,
});
export const texts = (items: readonly { blocks: readonly { type: string; text?: string }[] }[]) =>
  items.map((m) => m.blocks.map((b) => b.text ?? '').join(''));

/** The report of an import that was not refused as a whole. */
export const okReport = (report: ThreadsImportReport) => {
  if (!report.ok) throw new Error(`import refused: ${report.message}`);
  return report;
};

/** Fresh browsers for each test (call at a test file's top level); each is closed after the test. */
export function threadsBackupHarness() {
  const opened: TestStorage[] = [];
  afterEach(() => {
    for (const o of opened.splice(0)) o.close();
  });

  /**
   * A browser (its own IndexedDB) with its first profile open, which has the server "weather-gone" the trip thread
   * names (as after an import of the configuration), unless `servers` says otherwise.
   */
  async function browser(
    servers: { readonly ids: readonly string[]; readonly max?: number } = { ids: ['weather-gone'] },
  ): Promise<ThreadsBackupDeps & TestStorage> {
    // A clock that moves a millisecond a read: threads made one after the other list newest first.
    let time = NOW;
    const now = () => time++;
    const o = await openTestStorage({ now });
    opened.push(o);
    const profile = await o.storage.profiles.ensureActive();
    const serversHere = () => Promise.resolve({ ...servers, ids: new Set(servers.ids) });
    return { ...o, profileId: profile.id, now, serversHere };
  }

  /** "Trip": Paris, then edited to Rome (both kept), with an image on the first message and a compaction. */
  async function tripThread(deps: ThreadsBackupDeps, title = 'Trip'): Promise<ThreadConfig> {
    const { storage } = deps;
    const thread = await storage.threads.create(deps.profileId, { title, enabledServerIds: ['weather-gone'] });
    const imageId = `${thread.id}-image`;
    await storage.attachments.put(thread.id, [{ id: imageId, blob: new Blob([IMAGE_BYTES], { type: 'image/png' }) }]);
    const ref = {
      id: imageId,
      name: 'map.png',
      mimeType: 'image/png',
      kind: 'image' as const,
      size: IMAGE_BYTES.length,
      source: { type: 'file' as const },
    };
    await storage.messages.append(thread.id, say('user', 'Plan a trip', { attachments: [ref] }));
    const asked = await storage.messages.append(thread.id, say('assistant', 'Where to?'));
    await storage.messages.append(thread.id, say('user', 'Paris'));
    await storage.messages.append(thread.id, say('assistant', 'Paris it is'));
    await storage.messages.append(thread.id, say('user', 'Rome'), asked.id);
    await storage.messages.append(thread.id, say('assistant', 'Rome it is'));
    await storage.compactions.add(thread.id, {
      method: 'client',
      firstKeptMessageId: asked.id,
      firstKeptSeq: asked.seq,
      summary: 'The person plans a trip.',
      tokensBefore: 1000,
      tokensAfter: 100,
    });
    // What no backup may carry: this browser's approvals and sampling permission.
    return storage.threads.update(thread.id, () => ({
      approvals: {
        'weather-gone/forecast': { hash: 'h', origin: 'https://weather.example', authKind: 'none' },
      },
      samplingAllowed: { 'weather-gone': { origin: 'https://weather.example' } },
    }));
  }

  return { browser, tripThread };
}

/** The text of a backup that is one file (each test's backup is small). */
export const fileText = (backup: { readonly files: readonly { readonly parts: readonly string[] }[] }) => {
  if (backup.files.length !== 1) throw new Error(`a backup of ${backup.files.length} files`);
  return backup.files[0]!.parts.join('');
};
