import { elementScroll, useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ContextCompaction } from '../../../domain/compaction';
import type { Message } from '../../../domain/message';
import type { Reveal } from '../../../stores/chat-store';
import { ContextMarker, markersByMessage } from './context-marker';
import type { BranchControls } from './message-branches';
import { MessageItem } from './message-item';
import { wasTap } from '../../hooks/last-input';
import { TracePanel, TraceToggle } from './trace-panel';
import { prepareMarkdownIfLoaded } from '../../components/markdown-loader';
import { browserIdle, rowsAhead, runWhenIdle } from './prepare-ahead';
import { estimateRowHeight } from './row-estimate';
import { answerEnds, indexTools, isShown, turnTraces } from './turns';
import { useReveal } from './use-reveal';
import { useThreadShape } from './use-thread-shape';

export interface MessageListProps {
  readonly messages: readonly Message[];
  /** Offered on the thread's last message when it is a failed answer and no turn runs. */
  readonly onRetry?: (byKeyboard: boolean) => void;
  readonly serverNames: ReadonlyMap<string, string>;
  /** Compactions of the thread's model context: a marker shows where each starts. */
  readonly compactions?: readonly ContextCompaction[];
  /** The tool calls the person is being asked to approve now. */
  readonly awaitingIds?: ReadonlySet<string>;
  readonly isTurnRunning?: boolean;
  /** Versions, Edit and Regenerate (issue #22). */
  readonly branches?: BranchControls;
  /** A message a search found: the list opens at it, its words marked. */
  readonly reveal?: Reveal | undefined;
}

/** The list's width for estimates before it is in the page. */
const DEFAULT_WIDTH_PX = 800;

// Within this many pixels of the end the list follows new content.
const STICK_PX = 48;

/** A field where Home moves the caret, not the list. */
const isEditable = (target: EventTarget) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
/** The end of the list is in reach: within STICK_PX of the bottom. */
const isAtEnd = (element: HTMLElement) => element.scrollHeight - element.scrollTop - element.clientHeight <= STICK_PX;

/** Where the list is and how tall its content and its scroller are. */
interface Sight {
  readonly top: number;
  readonly height: number;
  readonly clientHeight: number;
}
const sight = (element: HTMLElement): Sight => ({
  top: element.scrollTop,
  height: element.scrollHeight,
  clientHeight: element.clientHeight,
});

/**
 * The thread's messages, virtualized (only the rows near the viewport are in the page, so a thread of thousands
 * opens at once); tool results show inside the card of the call they answer; each turn ends with its Trace.
 */
export function MessageList({
  messages,
  onRetry,
  serverNames,
  compactions = [],
  awaitingIds,
  isTurnRunning,
  branches,
  reveal,
}: MessageListProps) {
  // Whole-thread passes follow the thread's shape, which a streamed delta does not change.
  const shape = useThreadShape(messages);
  const { results, toolTraces, codeTraces } = useMemo(() => indexTools(shape), [shape]);
  const visible = useMemo(() => messages.filter(isShown), [messages]);
  // The same rows by the thread's shape: the same array while an answer streams in (same ids, same visibility), for
  // what a delta must not start again (the rows' keys, the rows prepared ahead).
  const shown = useMemo(() => shape.filter(isShown), [shape]);
  const traces = useMemo(() => turnTraces(shape), [shape]);
  const ends = useMemo(() => answerEnds(shape), [shape]);
  const markers = useMemo(() => markersByMessage(compactions, visible), [compactions, visible]);
  const [openTraces, setOpenTraces] = useState<ReadonlySet<string>>(new Set());
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLOListElement>(null);
  const isStuck = useRef(true);
  // The list's width for row estimates, as last observed (read here, it would make the browser lay out for each row).
  const listWidth = useRef(DEFAULT_WIDTH_PX);
  // Shown while the person reads further up: one press back to the end, which the list then follows again.
  const [isAway, setAway] = useState(false);
  const idBase = useId();

  // The versions of a message share one row, so the arrow that was pressed keeps the keyboard focus. One function
  // while the rows stay the same: the virtualizer lays all rows out again (estimating each one not yet measured)
  // whenever it changes, which a new closure on every render (each scroll step, each streamed delta) made it do.
  const versions = branches?.versions;
  const getItemKey = useCallback(
    (index: number) => {
      const id = shown[index]?.id;
      return id === undefined ? index : (versions?.get(id)?.[0] ?? id);
    },
    [shown, versions],
  );
  // The app does not use the React Compiler; the virtualizer re-renders this component itself as rows are measured.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scroller.current,
    // From each message's text, so that the rows shown at the end on opening are the ones that stay there.
    estimateSize: (index) => {
      const message = visible[index];
      return message ? estimateRowHeight(message, listWidth.current) : 96;
    },
    // A thread opens at its end (unless a search found an earlier message): its first render holds the last rows,
    // not the first ones, which would be rendered (their markdown parsed) and thrown away at once.
    initialOffset: () => (reveal ? 0 : Number.MAX_SAFE_INTEGER),
    overscan: 6,
    getItemKey,
    // The virtualizer moves the list itself as it measures rows above the view, by the rows' change of size, so the
    // rows in view stay where they were. Such a move is the list's own, not a scroll up of the person's. It counts from
    // where the virtualizer last read the list, which a scroll not yet read (Home's smooth scroll, a drag of the
    // scrollbar, a script, `toBottom`) may have left behind: written as is, it would throw the list back there. It moves
    // the list from where it is instead, unless the browser held the list at its end short of the virtualizer's last
    // write (the virtualizer writes that one again once the content has grown).
    scrollToFn: (offset, options, instance) => {
      const element = scroller.current;
      if (!element) return;
      letGoIfScrolledUp(element);
      const top = element.scrollTop;
      const isHeldAtEnd = top < offset && top >= element.scrollHeight - element.clientHeight - 1;
      const hasMoved = Math.abs(top - offset) > 1.5 && !isHeldAtEnd;
      elementScroll(options.adjustments && hasMoved ? top : offset, options, instance);
      seen.current = sight(element);
    },
  });

  // Which rows are above the view, whose change of size moves the list by as much (as the virtualizer's own rule, a row
  // measured the first time when it starts above the view, again when it ends above it and the list is not scrolling
  // up), is judged from where the list is, not from where the virtualizer last read it: while a scroll not yet read
  // moves the list up, the rows it passes are in the view, not above it.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) => {
    const top = scroller.current?.scrollTop ?? instance.scrollOffset ?? 0;
    return instance.itemSizeCache.has(item.key)
      ? item.end <= top && instance.scrollDirection !== 'backward'
      : item.start < top;
  };

  // Where the list last was, by a scroll event or by the list moving itself (`toBottom`, the virtualizer), with the
  // heights it then had. When a docked card goes, the browser pulls the list up to its new end and `toBottom` runs in
  // that frame; the scroll event of that pull is read a frame later, after the next card may have shrunk the list
  // again, and must read as no move, not as the person scrolling up.
  const seen = useRef<Sight>({ top: 0, height: 0, clientHeight: 0 });
  // A scroll whose event is not read yet (the person's drag of the scrollbar, Home, a script's or find-in-page's jump)
  // lets go of the end at once, before anything that follows the end (a message update, rows measured, the header or a
  // docked card changing) pulls the list back to it; its scroll event, read a frame later, would find the list at the
  // end. It is a move up since the list was last seen that leaves the end out of reach and is longer than the browser
  // can have pulled the list up itself: to a nearer end, by as much as the content shrank or the scroller could grow
  // (at most to the whole pane, a docked card gone). Rows measured change only the content: when they alone changed,
  // the scroller did not grow.
  const letGoIfScrolledUp = useCallback((element: HTMLElement, isContentOnly = false) => {
    const last = seen.current;
    const pane = element.parentElement?.clientHeight ?? element.clientHeight;
    const pull =
      Math.max(0, last.height - element.scrollHeight) + (isContentOnly ? 0 : Math.max(0, pane - last.clientHeight));
    if (last.top - element.scrollTop > pull && !isAtEnd(element)) isStuck.current = false;
  }, []);
  const toBottom = useCallback(
    (isContentOnly = false) => {
      const element = scroller.current;
      if (!element) return;
      letGoIfScrolledUp(element, isContentOnly);
      if (isStuck.current) element.scrollTop = element.scrollHeight;
      // A list that shrank to fit (an edit cut the branch) has its end in view without a scroll event: it follows again.
      else if (isAtEnd(element)) isStuck.current = true;
      seen.current = sight(element);
      if (isStuck.current) setAway(false);
    },
    [letGoIfScrolledUp],
  );
  // Back to the end and following it, whatever moved the list before.
  const takeEnd = useCallback(() => {
    isStuck.current = true;
    if (scroller.current) seen.current = sight(scroller.current);
    toBottom();
  }, [toBottom]);
  // The person's own new message always brings the end into view.
  const last = visible.at(-1);
  useLayoutEffect(() => {
    if (last?.role === 'user') takeEnd();
    else toBottom();
  }, [visible.length, last?.id, last?.role, last?.updatedAt, last?.blocks, toBottom, takeEnd]);
  // Follow the end while stuck to it, whatever changes the distance to it: rows measured after they render (a thread
  // opens at estimated sizes, so the first jump lands short), an answer growing as it streams, and the scroller itself
  // shrinking or growing as a docked card (approval, sampling, question) comes and goes or the window is resized.
  const hasRows = visible.length > 0;
  useEffect(() => {
    const element = content.current;
    const box = scroller.current;
    if (!element || !box || typeof ResizeObserver === 'undefined') return;
    listWidth.current = box.clientWidth || DEFAULT_WIDTH_PX;
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries)
        if (entry.target === box) listWidth.current = entry.contentRect.width || listWidth.current;
      toBottom(entries.every((e) => e.target === element));
    });
    observer.observe(element);
    observer.observe(box);
    // What sits beside the list (docked cards, the thinking line, the header) changes its height at once: a card that
    // goes and one that comes can land in one frame, which a ResizeObserver never sees. The list takes its end again on
    // each such change, before the scroll event of the pull is read.
    const beside = box.parentElement;
    const changes =
      beside && typeof MutationObserver !== 'undefined'
        ? new MutationObserver((records) => records.some((r) => !box.contains(r.target)) && toBottom())
        : undefined;
    if (beside) changes?.observe(beside, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      changes?.disconnect();
    };
  }, [hasRows, toBottom]);
  // Only the person scrolling up lets go of the end: a scroll that moves up and leaves the end out of reach. Content
  // growing or the scroller shrinking moves the end away without a scroll up, so it keeps the list stuck.
  const onScroll = (element: HTMLDivElement) => {
    const top = element.scrollTop;
    if (isAtEnd(element)) isStuck.current = true;
    else if (top < seen.current.top) isStuck.current = false;
    seen.current = sight(element);
    if (isAway === isStuck.current) setAway(!isStuck.current);
  };
  // A message a search found: the list lets go of the end and shows it (see useReveal); found at the end, it follows.
  const letGo = useCallback(() => {
    isStuck.current = false;
    setAway(true);
  }, []);
  const settle = useCallback(() => {
    if (!scroller.current || !isAtEnd(scroller.current)) return;
    isStuck.current = true;
    setAway(false);
  }, []);
  const { foundId, said } = useReveal({ reveal, visible, virtualizer, scroller, letGo, settle });
  // Home goes to the start at once. The browser's own is a smooth scroll, and rows measured on its way up (taller than
  // their estimates) move the list down by as much; such a move, written while it runs, ends it short of the start.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const element = scroller.current;
    if (event.key !== 'Home' || event.altKey || event.shiftKey || event.metaKey || !element) return;
    if (isEditable(event.target)) return;
    event.preventDefault();
    letGo();
    element.scrollTo({ top: 0 });
  };
  const jumpToLatest = () => {
    setAway(false);
    takeEnd();
    // The button goes once at the end: focus goes to the list (arrow keys and Page Up read on), not to the page.
    if (!wasTap()) scroller.current?.focus({ preventScroll: true });
  };

  // While the page is idle, the answers of the rows next to the rendered ones are parsed ahead: a scroll then mounts
  // rows whose markdown is ready, instead of parsing a long answer in the frame that shows it.
  const rows = virtualizer.getVirtualItems();
  const [firstRow, lastRow] = [rows[0]?.index ?? -1, rows.at(-1)?.index ?? -1];
  useEffect(() => {
    const idle = browserIdle();
    if (!idle || firstRow < 0) return;
    const jobs = rowsAhead(firstRow, lastRow, shown.length).flatMap((index) => {
      const message = shown[index];
      if (message?.role !== 'assistant' || message.status === 'streaming') return [];
      return message.blocks.flatMap((block) =>
        block.type === 'text' ? [() => prepareMarkdownIfLoaded(block.text)] : [],
      );
    });
    return runWhenIdle(jobs, idle);
  }, [firstRow, lastRow, shown]);

  if (visible.length === 0) return <p className="empty muted">No messages yet. Ask something below.</p>;
  const lastId = visible.at(-1)?.id;
  const toggle = (id: string) =>
    setOpenTraces((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div
      className="message-scroller"
      ref={scroller}
      tabIndex={-1}
      // Focus lands here after Jump to latest: named, so a screen reader says where it is.
      role="region"
      aria-label="Conversation"
      onScroll={(event) => onScroll(event.currentTarget)}
      onKeyDown={onKeyDown}
    >
      {/* First in the scroller: taken out of the flow where it stands, it must not stand below the list's end. */}
      <p className="visually-hidden" role="status">
        {said}
      </p>
      <ol className="messages" aria-label="Messages" ref={content} style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => {
          const message = visible[row.index]!;
          const trace = traces.get(message.id);
          const panelId = `${idBase}-trace-${row.index}`;
          return (
            <li
              key={row.key}
              data-index={row.index}
              // Only the rows near the view are in the page: a screen reader still hears "5 of 40".
              aria-setsize={visible.length}
              aria-posinset={row.index + 1}
              ref={virtualizer.measureElement}
              className={`message-row row-${message.role}${message.id === foundId ? ' is-found' : ''}`}
              style={{ transform: `translateY(${row.start}px)` }}
            >
              {markers.get(message.id)?.map((record) => (
                <ContextMarker key={record.id} compaction={record} />
              ))}
              <MessageItem
                message={message}
                results={results}
                toolTraces={toolTraces}
                codeTraces={codeTraces}
                isLast={message.id === lastId}
                isAnswerEnd={ends.has(message.id)}
                {...(branches ? { branches } : {})}
                {...(awaitingIds ? { awaitingIds } : {})}
                {...(isTurnRunning !== undefined ? { isTurnRunning } : {})}
                {...(message.id === lastId && message.status === 'error' && onRetry ? { onRetry } : {})}
              />
              {trace && (
                <TraceToggle
                  trace={trace}
                  panelId={panelId}
                  isOpen={openTraces.has(message.id)}
                  onToggle={() => toggle(message.id)}
                />
              )}
              {trace && openTraces.has(message.id) && (
                <TracePanel id={panelId} trace={trace} serverNames={serverNames} />
              )}
            </li>
          );
        })}
      </ol>
      {isAway && (
        <div className="jump-to-latest">
          <button type="button" className="secondary small" onClick={jumpToLatest}>
            <span aria-hidden="true">↓ </span>
            Jump to latest
          </button>
        </div>
      )}
    </div>
  );
}
