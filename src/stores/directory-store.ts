import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DirectoryEntry, DirectoryRemote, SkippedEntry } from '../domain/directory-entry';
import { describeError } from '../domain/errors';
import type { ServerDirectory } from '../mcp/server-directory';
import { EMPTY_SERVER_FORM, type ServerForm } from './server-form';

/** The "Find servers" list: what was searched, what was found, and why a search failed. */
export interface DirectoryState {
  readonly query: string;
  readonly status: 'idle' | 'searching' | 'done' | 'error';
  readonly entries: readonly DirectoryEntry[];
  readonly skipped: readonly SkippedEntry[];
  readonly nextCursor?: string;
  readonly error?: string;
}

export type DirectoryStore = StoreApi<DirectoryState>;

export interface DirectoryActions {
  /** Searches as the person types: after a pause, replacing (and cancelling) the search before. */
  setQuery(query: string): void;
  /** Appends the registry's next page. */
  more(): Promise<void>;
  dispose(): void;
}

/** Runs `run` after `ms`; returns a cancel. Injected so tests control time. */
export type Schedule = (run: () => void, ms: number) => () => void;
const realSchedule: Schedule = (run, ms) => {
  const id = setTimeout(run, ms);
  return () => clearTimeout(id);
};
export const SEARCH_PAUSE_MS = 300;

/** The directory's store and actions over a registry client. */
export function createDirectory(
  directory: ServerDirectory,
  schedule: Schedule = realSchedule,
): { store: DirectoryStore; actions: DirectoryActions } {
  const store = createStore<DirectoryState>(() => ({ query: '', status: 'idle', entries: [], skipped: [] }));
  let inFlight: AbortController | undefined;
  let cancelPause = () => undefined as void;

  const run = async (query: string, cursor: string | undefined) => {
    inFlight?.abort(new DOMException('A newer search replaced this one', 'AbortError'));
    const mine = new AbortController();
    inFlight = mine;
    store.setState({ status: 'searching', error: undefined });
    try {
      const page = await directory.search(query, cursor, mine.signal);
      if (mine.signal.aborted) return;
      const before = cursor ? store.getState() : { entries: [], skipped: [] };
      store.setState({
        status: 'done',
        entries: [...before.entries, ...page.entries],
        skipped: [...before.skipped, ...page.skipped],
        nextCursor: page.nextCursor,
      });
    } catch (error) {
      if (mine.signal.aborted) return; // Replaced by a newer search: not a failure.
      store.setState({ status: 'error', error: describeError(error) });
    }
  };

  return {
    store,
    actions: {
      setQuery(query) {
        store.setState({ query });
        cancelPause();
        cancelPause = schedule(() => void run(query, undefined), SEARCH_PAUSE_MS);
      },
      more: () => {
        const { query, nextCursor } = store.getState();
        return nextCursor ? run(query, nextCursor) : Promise.resolve();
      },
      dispose() {
        cancelPause();
        inFlight?.abort(new DOMException('The directory closed', 'AbortError'));
      },
    },
  };
}

/** The server form filled from a directory entry: its name, URL and transport, and the headers it declares. */
export function formForEntry(entry: DirectoryEntry, remote: DirectoryRemote): ServerForm {
  const headers = remote.headers.map((h) => ({ name: h.name, value: '' }));
  return {
    ...EMPTY_SERVER_FORM,
    name: entry.title.slice(0, 60),
    url: remote.url,
    transport: remote.transport,
    auth: headers.length > 0 ? 'headers' : 'none',
    headers: headers.length > 0 ? headers : EMPTY_SERVER_FORM.headers,
  };
}
