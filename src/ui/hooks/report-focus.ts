import { useEffect, useRef } from 'react';
import { isFocusLost } from './focus-lost';

/**
 * An import's report comes in place of the file picker's work: it is scrolled to, and focus the picker lost (it is
 * disabled while it reads) goes to it, so a screen reader reads it and a keyboard user goes on from there. The element
 * needs tabIndex -1 and a name.
 */
export function useReportFocus<T extends HTMLElement>(report: unknown) {
  const box = useRef<T>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    element.scrollIntoView?.({ block: 'nearest' });
    if (isFocusLost() || document.activeElement?.matches('input[type="file"]')) element.focus();
  }, [report]);
  return box;
}
