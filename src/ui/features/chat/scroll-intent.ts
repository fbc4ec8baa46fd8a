import { useCallback, useEffect, useRef, type RefObject } from 'react';

/** How long after the person's wheel, drag or key a scroll counts as theirs (a smooth scroll or a flick runs on). */
const INTENT_MS = 1_000;

/** Keys that scroll a list, or move focus to what it then scrolls into view. */
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ', 'Tab']);

function isEditable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

/**
 * Whether the person is scrolling `scroller` themselves: a wheel or a finger on it, a press on its scrollbar, or a
 * scrolling key, within the last second. A scroll the page makes (the browser clamping the position when a docked card
 * goes and another comes, the virtual list keeping rows in place) has none of these, so it never lets go of the end.
 * `isShown` is whether the scroller is in the page now.
 */
export function useScrollIntent(scroller: RefObject<HTMLElement | null>, isShown: boolean): () => boolean {
  const lastIntent = useRef(-Infinity);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const mark = () => (lastIntent.current = performance.now());
    const onPointer = (event: PointerEvent) => event.target === element && mark(); // The scrollbar is the element's own.
    const onKey = (event: KeyboardEvent) => {
      if (SCROLL_KEYS.has(event.key) && (event.key === 'Tab' || !isEditable(event.target))) mark();
    };
    element.addEventListener('wheel', mark, { passive: true });
    element.addEventListener('touchmove', mark, { passive: true });
    element.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey, true);
    return () => {
      element.removeEventListener('wheel', mark);
      element.removeEventListener('touchmove', mark);
      element.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [scroller, isShown]);
  return useCallback(() => performance.now() - lastIntent.current < INTENT_MS, []);
}
