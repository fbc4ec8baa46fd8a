import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { describeError } from '../../../domain/errors';
import type { MessageMatch } from '../../../domain/message-text';
import type { ThreadConfig } from '../../../domain/thread-config';
import { isFocusLost } from '../../hooks/focus-lost';
import { ThreadRow, type Editing } from './thread-row';
import { virtualRowProps } from '../../components/virtual-row';

export interface ThreadListProps {
  readonly threads: readonly ThreadConfig[];
  readonly activeId?: string;
  /** The thread whose answer is being written, marked in the list. */
  readonly runningId?: string;
  readonly onNew: () => void;
  /** Opens a thread; at a message when the search found the thread by it (`words`: what it found, as shown). */
  readonly onOpen: (id: string, found?: { readonly messageId: string; readonly words: string }) => void;
  readonly onDelete: (id: string) => void;
  /** Resolves to an error message to show next to the field, or undefined when renamed. */
  readonly onRename: (id: string, title: string) => Promise<string | undefined>;
  /** The threads' latest messages that hold `needle`, by thread id (the search also reads every message). */
  readonly onSearchMessages?: (needle: string) => Promise<ReadonlyMap<string, MessageMatch>>;
  /** The search box took focus: a search is likely soon (the messages can be read ahead). */
  readonly onPrepareSearch?: () => void;
}

/** How long typing pauses before the messages are searched, and the shortest search that reads them. */
const SEARCH_PAUSE_MS = 150;
const SEARCH_MIN_CHARS = 2;

/**
 * The sidebar: new thread, a search over titles, preview lines and every message, and the profile's threads, most
 * recent first. On a narrow screen the search and the list fold away behind a "Threads" button, leaving the room to
 * the chat.
 */
export function ThreadList({
  threads,
  activeId,
  runningId,
  onNew,
  onOpen,
  onDelete,
  onRename,
  onSearchMessages,
  onPrepareSearch,
}: ThreadListProps) {
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<Editing>();
  const [isOpen, setOpen] = useState(false);
  const listId = useId();
  // The clock the dates are told by, a minute at a time (a change newer than it reads "just now").
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  // On a phone the open list folds away on Escape (focus back on its button) or a press anywhere else (a panel).
  const nav = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!isOpen) return;
    const outside = (event: PointerEvent) => {
      if (event.target instanceof Node && !nav.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [isOpen]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !isOpen || editing) return;
    setOpen(false);
    toggle.current?.focus();
  };
  const active = threads.find((t) => t.id === activeId);
  // On a phone, choosing a thread folds the list away again.
  const fold = (then: () => void) => {
    setOpen(false);
    then();
  };
  // By title and by the preview line under it (what the list shows), then by the text of every message.
  const needle = query.trim().toLowerCase();
  const isListed = (t: ThreadConfig) =>
    t.title.toLowerCase().includes(needle) || (t.preview ?? '').toLowerCase().includes(needle);
  const [found, setFound] = useState<{
    readonly needle: string;
    readonly matches: ReadonlyMap<string, MessageMatch>;
    readonly error?: string;
  }>();
  const searchMessages = useRef(onSearchMessages);
  useEffect(() => {
    searchMessages.current = onSearchMessages;
  }, [onSearchMessages]);
  const readsMessages = onSearchMessages !== undefined && needle.length >= SEARCH_MIN_CHARS;
  // Searched again when a thread comes, goes or changes (a new answer, another version shown), not when the list is
  // merely read again; after a pause in the typing.
  const threadsKey = threads.map((t) => `${t.id}@${t.updatedAt}@${t.activeLeafId ?? ''}`).join(',');
  useEffect(() => {
    const search = searchMessages.current;
    if (!search || needle.length < SEARCH_MIN_CHARS) return;
    let isCurrent = true;
    const timer = setTimeout(() => {
      search(needle).then(
        (matches) => isCurrent && setFound({ needle, matches }),
        (error: unknown) => isCurrent && setFound({ needle, matches: new Map(), error: describeError(error) }),
      );
    }, SEARCH_PAUSE_MS);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [needle, threadsKey]);
  const inMessages = readsMessages && found?.needle === needle ? found : undefined;
  const isSearching = readsMessages && !inMessages;
  const shown = needle ? threads.filter((t) => isListed(t) || inMessages?.matches.has(t.id)) : threads;

  const scroller = useRef<HTMLDivElement>(null);
  const [focusedId, setFocusedId] = useState<string>();
  /** The thread deleted last: Undo brings it back where it was, maybe far from the view, and focus goes to it. */
  const deletedId = useRef<string>(undefined);
  const keptIds = [activeId, editing?.id, focusedId, deletedId.current];
  const kept = shown.flatMap((t, index) => (keptIds.includes(t.id) ? [index] : []));
  const keptKey = kept.join(',');
  const rangeExtractor = useCallback(
    (range: Range) =>
      [...new Set([...defaultRangeExtractor(range), ...keptKey.split(',').filter(Boolean).map(Number)])].sort(
        (a, b) => a - b,
      ),
    [keptKey],
  );
  // The app does not use the React Compiler; the virtualizer re-renders this component itself as rows are measured.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 44,
    overscan: 10,
    getItemKey: (index) => shown[index]?.id ?? index,
    rangeExtractor,
  });

  // Renamed or not, the title field goes: focus goes back to the thread it named (not to the page).
  const renamedId = useRef<string>(undefined);
  useEffect(() => {
    const id = renamedId.current;
    if (id === undefined || editing) return;
    renamedId.current = undefined;
    if (isFocusLost()) nav.current?.querySelector<HTMLElement>(`[data-thread-id="${CSS.escape(id)}"]`)?.focus();
  }, [editing]);
  const stopEditing = (id: string) => {
    renamedId.current = id;
    setEditing(undefined);
  };

  const saveTitle = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const error = await onRename(editing.id, editing.title);
    if (error) setEditing({ ...editing, error });
    else stopEditing(editing.id);
  };

  return (
    <nav className={isOpen ? 'threads is-open' : 'threads'} aria-label="Threads" ref={nav} onKeyDown={onKeyDown}>
      <div className="threads-bar">
        <button
          type="button"
          className="secondary threads-toggle"
          ref={toggle}
          aria-expanded={isOpen}
          aria-controls={listId}
          onClick={() => setOpen(!isOpen)}
        >
          Threads <span className="muted">({threads.length})</span>
          {active && <span className="threads-current"> · {active.title}</span>}
        </button>
        <button type="button" onClick={() => fold(onNew)} className="new-thread">
          New thread
        </button>
      </div>
      <div className="threads-body" id={listId}>
        <input
          type="search"
          className="thread-search"
          aria-label="Search threads"
          placeholder="Search threads"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onFocus={onPrepareSearch}
        />
        {inMessages?.error && <p className="field-error">Searching the messages failed: {inMessages.error}</p>}
        {shown.length === 0 && threads.length > 0 && (
          <p className="muted" role="status">
            {isSearching ? 'Searching the messages…' : 'No thread matches.'}
          </p>
        )}
        {/* Only the rows near the view are in the page (a heavy user has thousands of threads); the open thread's, the
            one being renamed, the one with focus and the one just deleted stay, so focus has somewhere to go. */}
        <div className="thread-scroller" ref={scroller}>
          <ul style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((row) => {
              const thread = shown[row.index]!;
              // A thread found only by a message's text shows where (a title or preview match shows itself).
              const foundHere = needle && !isListed(thread) ? inMessages?.matches.get(thread.id) : undefined;
              const isEditing = editing?.id === thread.id;
              return (
                <li
                  key={row.key}
                  {...virtualRowProps(row, shown.length, virtualizer.measureElement)}
                  className={!isEditing && thread.id === activeId ? 'active' : undefined}
                  onFocus={() => setFocusedId(thread.id)}
                >
                  <ThreadRow
                    thread={thread}
                    listId={listId}
                    now={now}
                    activeId={activeId}
                    runningId={runningId}
                    foundHere={foundHere}
                    editing={editing}
                    onOpen={() =>
                      fold(() =>
                        foundHere
                          ? onOpen(thread.id, { messageId: foundHere.messageId, words: foundHere.match.match })
                          : onOpen(thread.id),
                      )
                    }
                    onEdit={setEditing}
                    onSave={(e) => void saveTitle(e)}
                    onStopEditing={() => stopEditing(thread.id)}
                    onDelete={() => {
                      deletedId.current = thread.id;
                      onDelete(thread.id);
                    }}
                  />
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </nav>
  );
}
