import { describe, expect, it } from 'vitest';
import type { DirectoryEntry, DirectoryPage } from '../domain/directory-entry';
import { DirectoryError, type ServerDirectory } from '../mcp/server-directory';
import { createDirectory, formForEntry, SEARCH_PAUSE_MS, type Schedule } from './directory-store';

/** A schedule the test runs by hand: nothing happens until `flush`. */
function manualSchedule() {
  let pending: { run: () => void; ms: number }[] = [];
  const schedule: Schedule = (run, ms) => {
    const entry = { run, ms };
    pending.push(entry);
    return () => void (pending = pending.filter((p) => p !== entry));
  };
  return {
    schedule,
    flush: () => {
      const due = pending;
      pending = [];
      for (const p of due) p.run();
      return due.map((p) => p.ms);
    },
  };
}

const entry = (name: string): DirectoryEntry => ({
  name,
  title: name.split('/').pop()!,
  description: '',
  version: '1.0.0',
  publisher: name.split('/')[0]!,
  remotes: [{ transport: 'http', url: `https://${name.split('/').pop()}.example.com/mcp`, headers: [] }],
  packages: [],
});

/** A directory answering each search when the test says so. */
function scriptedDirectory() {
  const calls: {
    query: string;
    cursor?: string;
    signal: AbortSignal;
    answer: (page: DirectoryPage | Error) => void;
  }[] = [];
  const directory: ServerDirectory = {
    search: (query, cursor, signal) =>
      new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        calls.push({
          query,
          ...(cursor ? { cursor } : {}),
          signal,
          answer: (page) => (page instanceof Error ? reject(page) : resolve(page)),
        });
      }),
  };
  return { directory, calls };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('directory store', () => {
  it('searches once the person pauses typing, not on every key', async () => {
    const { directory, calls } = scriptedDirectory();
    const time = manualSchedule();
    const { store, actions } = createDirectory(directory, time.schedule);
    actions.setQuery('w');
    actions.setQuery('we');
    actions.setQuery('weather');
    expect(calls).toHaveLength(0);
    expect(time.flush()).toEqual([SEARCH_PAUSE_MS]);
    expect(calls.map((c) => c.query)).toEqual(['weather']);
    calls[0]!.answer({ entries: [entry('io.x/weather')], skipped: [] });
    await settle();
    expect(store.getState()).toMatchObject({ status: 'done', entries: [entry('io.x/weather')] });
  });

  it('a newer search cancels the one in flight, whose late answer never shows', async () => {
    const { directory, calls } = scriptedDirectory();
    const time = manualSchedule();
    const { store, actions } = createDirectory(directory, time.schedule);
    actions.setQuery('old');
    time.flush();
    actions.setQuery('new');
    time.flush();
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[1]!.answer({ entries: [entry('io.x/new')], skipped: [] });
    await settle();
    expect(store.getState().entries.map((e) => e.name)).toEqual(['io.x/new']);
    expect(store.getState().status).toBe('done');
  });

  it('shows why a search failed, and More appends the next page', async () => {
    const { directory, calls } = scriptedDirectory();
    const time = manualSchedule();
    const { store, actions } = createDirectory(directory, time.schedule);
    actions.setQuery('x');
    time.flush();
    calls[0]!.answer(
      new DirectoryError('not-json', 'The registry at http://r did not answer with JSON; is it a registry?'),
    );
    await settle();
    expect(store.getState()).toMatchObject({
      status: 'error',
      error: 'The registry at http://r did not answer with JSON; is it a registry?',
    });

    actions.setQuery('y');
    time.flush();
    calls[1]!.answer({ entries: [entry('io.x/a')], skipped: [], nextCursor: 'c1' });
    await settle();
    const more = actions.more();
    expect(calls[2]).toMatchObject({ query: 'y', cursor: 'c1' });
    calls[2]!.answer({ entries: [entry('io.x/b')], skipped: [{ name: 'io.x/bad', reason: 'malformed entry (name)' }] });
    await more;
    expect(store.getState()).toMatchObject({ status: 'done', error: undefined, nextCursor: undefined });
    expect(store.getState().entries.map((e) => e.name)).toEqual(['io.x/a', 'io.x/b']);
    expect(store.getState().skipped).toHaveLength(1);
  });

  it('fills the server form from an entry, with the headers it declares left for the person', () => {
    const withKey: DirectoryEntry = {
      ...entry('io.x/search'),
      remotes: [
        {
          transport: 'sse',
          url: 'https://search.example.com/sse',
          headers: [{ name: 'X-Api-Key', description: 'Your key', isRequired: true, isSecret: true }],
        },
      ],
    };
    expect(formForEntry(withKey, withKey.remotes[0]!)).toMatchObject({
      name: 'search',
      url: 'https://search.example.com/sse',
      transport: 'sse',
      auth: 'headers',
      headers: [{ name: 'X-Api-Key', value: '' }],
    });
  });
});
