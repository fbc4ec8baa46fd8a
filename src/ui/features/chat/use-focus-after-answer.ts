import { useEffect, type RefObject } from 'react';
import { isFocusLost } from '../../hooks/focus-lost';
import { followInput, wasTap } from '../../hooks/last-input';

/**
 * When the person answers a docked card (Allow once, Approve and run, Send answer, Accept, Decline, Reject...), its
 * buttons go away and keyboard focus would fall to the page: it goes to the next card still waiting, else back to the
 * message box. Not after a tap: on a phone, focusing the box would raise the keyboard over the answer coming in.
 */
export function useFocusAfterAnswer(dock: HTMLElement | null, box: RefObject<HTMLTextAreaElement | null>): void {
  useEffect(() => {
    if (!dock || typeof MutationObserver === 'undefined') return;
    followInput(); // A tap is told apart from a click from now on.
    // Whether the person's last press or key went to a card in the dock.
    let isAnswering = false;
    const onInput = (event: Event) => {
      isAnswering = event.target instanceof Node && dock.contains(event.target);
    };
    const restore = () => {
      if (!isAnswering || wasTap() || !isFocusLost()) return;
      isAnswering = false;
      // Another question still waits: focus goes to it (the card, not its first button, so Enter pressed again
      // answers nothing unread); else to the box.
      const next = dock.querySelector<HTMLElement>('section.approval');
      if (next) next.focus();
      else box.current?.focus({ preventScroll: true });
    };
    const observer = new MutationObserver(restore);
    observer.observe(dock, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
    document.addEventListener('pointerdown', onInput, true);
    document.addEventListener('keydown', onInput, true);
    return () => {
      observer.disconnect();
      document.removeEventListener('pointerdown', onInput, true);
      document.removeEventListener('keydown', onInput, true);
    };
  }, [dock, box]);
}
