import { useEffect, type RefObject } from 'react';
import { followInput, wasTap } from '../../hooks/last-input';

/**
 * After "New thread" the message box has the focus, ready for the first message (the button would keep it otherwise;
 * the box stays the same element from thread to thread). Not after a tap, which on a phone would raise the keyboard
 * unasked.
 */
export function useFocusOnNewThread(box: RefObject<HTMLTextAreaElement | null>): void {
  useEffect(() => {
    followInput(); // A tap is told apart from a click from now on.
    const onClick = (event: MouseEvent) => {
      const target = event.target;
      if (!(target instanceof Element) || !target.closest('button.new-thread') || wasTap()) return;
      box.current?.focus();
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [box]);
}
