import { useEffect, useRef, type RefObject } from 'react';
import { followInput, wasTap } from '../../hooks/last-input';

/**
 * The Stop button goes away when the answer ends on its own; focus on it would drop to the page's start. A keyboard
 * user whose focus was on Stop finds it in the message box instead (as after pressing Stop). Focus moved anywhere
 * else meanwhile, or never on Stop, stays where it is (a phone's keyboard does not open by itself).
 */
export function useStopFocus(isRunning: boolean, box: RefObject<HTMLTextAreaElement | null>) {
  const stop = useRef<HTMLButtonElement>(null);
  const wasOnStop = useRef(false);
  useEffect(() => {
    followInput(); // A tap is told apart from a click from now on.
    // A focus that lands anywhere, Stop or not, says where it is; the removed Stop sends no focusin anywhere.
    const follow = (event: FocusEvent) => {
      wasOnStop.current = event.target !== null && event.target === stop.current;
    };
    // A press anywhere else (the page's background, which takes no focus) leaves Stop too.
    const press = (event: PointerEvent) => {
      if (event.target !== stop.current) wasOnStop.current = false;
    };
    document.addEventListener('focusin', follow);
    document.addEventListener('pointerdown', press);
    return () => {
      document.removeEventListener('focusin', follow);
      document.removeEventListener('pointerdown', press);
    };
  }, []);
  useEffect(() => {
    if (isRunning || !wasOnStop.current) return;
    wasOnStop.current = false;
    if (wasTap()) return; // Stop tapped on a phone: focusing the box would raise the keyboard over the answer.
    const active = document.activeElement;
    if (active === null || active === document.body) box.current?.focus();
  }, [isRunning, box]);
  return stop;
}
