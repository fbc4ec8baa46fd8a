// A deleted thread's recent model calls stay counted by the spending limits (deleted-usage.ts), over real storage.
import { describe, expect, it } from 'vitest';
import { openTestStorage } from '../../test/fakes/test-storage';
import { countUsage, HOUR_MS, KEEP_DELETED_USAGE_MS } from '../domain/usage-limits';
import { deletedUsageKey } from './deleted-usage';

const call = (input: number, output: number) => ({
  kind: 'model-call' as const,
  model: 'claude-test',
  toolNames: [],
  toolTokens: 0,
  durationMs: 5,
  usage: { input, output, cacheRead: 0, cacheWrite: 0 },
});

describe('the usage of deleted threads', () => {
  it('is kept in the profile for a day, counted with the stored messages, and dropped once no window can count it', async () => {
    const clock = { at: Date.UTC(2026, 10, 26, 12) };
    const opened = await openTestStorage({ now: () => clock.at });
    const { storage } = opened;
    try {
      const profile = await storage.profiles.ensureActive();
      const old = await storage.threads.create(profile.id, { title: 'Old' });
      await storage.messages.append(old.id, {
        role: 'assistant',
        blocks: [],
        status: 'complete',
        trace: [call(900, 99)],
      });
      clock.at += KEEP_DELETED_USAGE_MS + HOUR_MS; // That answer is now older than any window.
      const recent = await storage.threads.create(profile.id, { title: 'Recent' });
      await storage.messages.append(recent.id, {
        role: 'user',
        blocks: [{ type: 'text', text: 'q' }],
        status: 'complete',
      });
      await storage.messages.append(recent.id, {
        role: 'assistant',
        blocks: [{ type: 'text', text: 'a' }],
        status: 'complete',
        trace: [call(100, 20), call(50, 10)],
      });
      const before = countUsage(await storage.usage.since(profile.id, clock.at - 2 * HOUR_MS), clock.at);
      expect(before).toMatchObject({ callsLastHour: 2, tokensToday: 180 });

      await storage.threads.delete(recent.id);
      await storage.threads.delete(old.id);
      const after = countUsage(await storage.usage.since(profile.id, clock.at - 2 * HOUR_MS), clock.at);
      expect(after).toMatchObject({ callsLastHour: 2, tokensToday: 180 });
      const kept = async () => (await opened.db.get('meta', deletedUsageKey(profile.id)))?.value;
      expect(await kept()).toEqual([{ updatedAt: clock.at, calls: 2, tokens: 180 }]);

      // A day later the next deletion drops it: nothing counts it any more.
      clock.at += KEEP_DELETED_USAGE_MS + 1;
      const next = await storage.threads.create(profile.id, { title: 'Next' });
      await storage.threads.delete(next.id);
      expect(await kept()).toEqual([]);
    } finally {
      opened.close();
    }
  });

  it('skips an entry it cannot read, and counts the rest', async () => {
    const opened = await openTestStorage();
    try {
      const profile = await opened.storage.profiles.ensureActive();
      const now = Date.now();
      const good = { updatedAt: now, calls: 1, tokens: 10 };
      await opened.db.put('meta', { key: deletedUsageKey(profile.id), value: [{ updatedAt: now, calls: 1.5 }, good] });
      const usage = countUsage(await opened.storage.usage.since(profile.id, now - HOUR_MS), now);
      expect(usage).toMatchObject({ callsLastHour: 1, tokensToday: 10 });
      expect(await opened.storage.profiles.get(profile.id)).toBeDefined();
    } finally {
      opened.close();
    }
  });
});
