import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { describeError } from '../../../domain/errors';
import type { MessageMatch } from '../../../domain/message-text';
import type { ThreadConfig } from '../../../domain/thread-config';
import { isFocusLost } from '../../hooks/focus-lost';
import { relativeTime } from './relative-time';

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

/** A thread's message found by the search: where the words stand in it, the words marked. */
function FoundLine({ id, found }: { id: string; found: MessageMatch }) {
  return (
    <span className="thread-found" id={id} aria-hidden="true">
      {found.role === 'user' ? 'You: ' : ''}
      {found.match.before}
      <mark>{found.match.match}</mark>
      {found.match.after}
    </span>
  );
}

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
  const [editing, setEditing] = useState<{ id: string; title: string; error?: string }>();
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
  // Searched again when a thread comes, goes or changes (a new answer), not when the list is merely read again; after a
  // pause in the typing.
  const threadsKey = threads.map((t) => `${t.id}@${t.updatedAt}`).join(',');
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
        <ul>
          {shown.map((thread) => {
            // A thread found only by a message's text shows where (a title or preview match shows itself).
            const foundHere = needle && !isListed(thread) ? inMessages?.matches.get(thread.id) : undefined;
            return editing?.id === thread.id ? (
              <li key={thread.id}>
                <form onSubmit={(e) => void saveTitle(e)} className="rename" noValidate>
                  <input
                    aria-label="Thread title"
                    value={editing.title}
                    autoFocus
                    onChange={(e) => setEditing({ ...editing, title: e.target.value })}
                    onKeyDown={(e) => e.key === 'Escape' && stopEditing(thread.id)}
                  />
                  {editing.error && <p className="field-error">{editing.error}</p>}
                </form>
              </li>
            ) : (
              <li key={thread.id} className={thread.id === activeId ? 'active' : undefined}>
                <button
                  type="button"
                  className="thread-link"
                  data-thread-id={thread.id}
                  aria-describedby={`${thread.id === runningId ? `${listId}-${thread.id}-running ` : ''}${listId}-${thread.id}${foundHere ? ` ${listId}-${thread.id}-found` : ''}`}
                  aria-current={thread.id === activeId ? 'page' : undefined}
                  onClick={() =>
                    fold(() =>
                      foundHere
                        ? onOpen(thread.id, { messageId: foundHere.messageId, words: foundHere.match.match })
                        : onOpen(thread.id),
                    )
                  }
                >
                  <span className="thread-title">{thread.title}</span>
                  {/* Its name stays the title: "Answering…" is part of its description. */}
                  {thread.id === runningId && (
                    <span className="thread-running" id={`${listId}-${thread.id}-running`} aria-hidden="true">
                      Answering…
                    </span>
                  )}
                  {/* Its name is the title (the visible label); date and preview are its description, not its name. */}
                  <span className="thread-meta muted" id={`${listId}-${thread.id}`} aria-hidden="true">
                    <time dateTime={new Date(thread.updatedAt).toISOString()}>
                      {relativeTime(thread.updatedAt, now)}
                    </time>
                    {thread.preview ? ` · ${thread.preview}` : ''}
                  </span>
                  {foundHere && <FoundLine id={`${listId}-${thread.id}-found`} found={foundHere} />}
                </button>
                <button
                  type="button"
                  className="icon secondary"
                  aria-label={`Rename thread ${thread.title}`}
                  onClick={() => setEditing({ id: thread.id, title: thread.title })}
                >
                  ✎
                </button>
                <button
                  type="button"
                  className="icon danger"
                  aria-label={`Delete thread ${thread.title}`}
                  onClick={() => onDelete(thread.id)}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}
