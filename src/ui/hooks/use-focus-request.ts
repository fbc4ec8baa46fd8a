import { useEffect, useRef, type RefObject } from 'react';

/**
 * Brings an element into view and focuses it each time `request` goes up, once it is there and `isReady` (a form
 * still loading shows no field yet): each request is served once.
 */
export function useFocusRequest(element: RefObject<HTMLElement | null>, isReady: boolean, request: number): void {
  const served = useRef(0);
  useEffect(() => {
    const target = element.current;
    if (!isReady || !target || request <= served.current) return;
    served.current = request;
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
  }, [element, isReady, request]);
}
