import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Message } from '../../../domain/message';
import { wasTap } from '../../hooks/last-input';

/** The list's width for estimates before it is in the page. */
export const DEFAULT_WIDTH_PX = 800;

// Within this many pixels of the end the list follows new content.
const STICK_PX = 48;

/** The end of the list is in reach: within STICK_PX of the bottom. */
const isAtEnd = (element: HTMLElement) => element.scrollHeight - element.scrollTop - element.clientHeight <= STICK_PX;

/** Where the list is and how tall its content and its scroller are. */
export interface Sight {
  readonly top: number;
  readonly height: number;
  readonly clientHeight: number;
}
export const sight = (element: HTMLElement): Sight => ({
  top: element.scrollTop,
  height: element.scrollHeight,
  clientHeight: element.clientHeight,
});

export interface StickToEndOptions {
  readonly scroller: RefObject<HTMLDivElement | null>;
  readonly content: RefObject<HTMLOListElement | null>;
  /** The list's width for row estimates, kept as last observed (read in place, it would lay the page out per row). */
  readonly listWidth: { current: number };
  readonly visible: readonly Message[];
}

export interface StickToEnd {
  /** The person reads further up: "Jump to latest" is shown. */
  readonly isAway: boolean;
  /** Where the list last was, by a scroll event or by the list moving itself. */
  readonly seen: { current: Sight };
  readonly letGoIfScrolledUp: (element: HTMLElement, isContentOnly?: boolean) => void;
  readonly onScroll: (element: HTMLDivElement) => void;
  /** The list stops following the end (a search's find, Home). */
  readonly letGo: () => void;
  /** The list follows the end again if it is there. */
  readonly settle: () => void;
  readonly jumpToLatest: () => void;
}

/**
 * The message list follows its end while the person is there (an answer streaming in, rows measured, docked cards
 * coming and going) and lets go only when the person scrolls up. Called right after the list's virtualizer, so its
 * effects run after the virtualizer's.
 */
export function useStickToEnd({ scroller, content, listWidth, visible }: StickToEndOptions): StickToEnd {
  const isStuck = useRef(true);
  // Shown while the person reads further up: one press back to the end, which the list then follows again.
  const [isAway, setAway] = useState(false);
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
    [letGoIfScrolledUp, scroller],
  );
  // Back to the end and following it, whatever moved the list before.
  const takeEnd = useCallback(() => {
    isStuck.current = true;
    if (scroller.current) seen.current = sight(scroller.current);
    toBottom();
  }, [toBottom, scroller]);
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
  }, [hasRows, toBottom, content, scroller, listWidth]);
  // Only the person scrolling up lets go of the end: a scroll that moves up and leaves the end out of reach. Content
  // growing or the scroller shrinking moves the end away without a scroll up, so it keeps the list stuck.
  const onScroll = (element: HTMLDivElement) => {
    const top = element.scrollTop;
    if (isAtEnd(element)) isStuck.current = true;
    else if (top < seen.current.top) isStuck.current = false;
    seen.current = sight(element);
    if (isAway === isStuck.current) setAway(!isStuck.current);
  };
  const letGo = useCallback(() => {
    isStuck.current = false;
    setAway(true);
  }, []);
  const settle = useCallback(() => {
    if (!scroller.current || !isAtEnd(scroller.current)) return;
    isStuck.current = true;
    setAway(false);
  }, [scroller]);
  const jumpToLatest = () => {
    setAway(false);
    takeEnd();
    // The button goes once at the end: focus goes to the list (arrow keys and Page Up read on), not to the page.
    if (!wasTap()) scroller.current?.focus({ preventScroll: true });
  };
  return { isAway, seen, letGoIfScrolledUp, onScroll, letGo, settle, jumpToLatest };
}
