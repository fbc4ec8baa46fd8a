import { elementScroll, useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ContextCompaction } from '../../../domain/compaction';
import type { Message } from '../../../domain/message';
import type { Reveal } from '../../../stores/chat-store';
import { ContextMarker, markersByMessage } from './context-marker';
import type { BranchControls } from './message-branches';
import { MessageItem } from './message-item';
import { TracePanel, TraceToggle } from './trace-panel';
import { prepareMarkdownIfLoaded } from '../../components/markdown-loader';
import { browserIdle, rowsAhead, runWhenIdle } from './prepare-ahead';
import { estimateRowHeight } from './row-estimate';
import { answerEnds, indexTools, isShown, turnTraces } from './turns';
import { useReveal } from './use-reveal';
import { useThreadShape } from './use-thread-shape';
import { DEFAULT_WIDTH_PX, sight, useStickToEnd } from './use-stick-to-end';
import { virtualRowProps } from '../../components/virtual-row';

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

/** A field where Home moves the caret, not the list. */
const isEditable = (target: EventTarget) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
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
  // The list's width for row estimates, as last observed (read here, it would make the browser lay out for each row).
  const listWidth = useRef(DEFAULT_WIDTH_PX);
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

  // After the virtualizer, whose scrollToFn above reads these only when it scrolls (in effects, after this render), so
  // that the list's own effects (follow the end, observe sizes) run after the virtualizer's.
  const { isAway, seen, letGoIfScrolledUp, onScroll, letGo, settle, jumpToLatest } = useStickToEnd({
    scroller,
    content,
    listWidth,
    visible,
  });
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
              {...virtualRowProps(row, visible.length, virtualizer.measureElement)}
              className={`message-row row-${message.role}${message.id === foundId ? ' is-found' : ''}`}
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
