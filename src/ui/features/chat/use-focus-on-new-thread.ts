import { useEffect, type RefObject } from 'react';
import { followInput, wasTap } from '../../hooks/last-input';

/**
 * After "New thread" the message box has the focus, ready for the first message (the button would keep it otherwise;
 * the box stays the same element from thread to thread). The box is disabled while no thread is open, which drops
 * its focus, so the focus comes back when the new thread opens and enables it again (unless the person went
 * elsewhere meanwhile). Not after a tap, which on a phone would raise the keyboard unasked.
 */
export function useFocusOnNewThread(box: RefObject<HTMLTextAreaElement | null>): void {
  useEffect(() => {
    followInput(); // A tap is told apart from a click from now on.
    let isPending = false;
    const onClick = (event: MouseEvent) => {
      const target = event.target;
      isPending = target instanceof Element && target.closest('button.new-thread') !== null && !wasTap();
      if (isPending) box.current?.focus();
    };
    // Another press, or the focus moved on (by Tab), means the person went elsewhere.
    const onElsewhere = (event: Event) => {
      const target = event.target;
      if (target === box.current || (target instanceof Element && target.closest('button.new-thread'))) return;
      isPending = false;
    };
    const enabled = new MutationObserver(() => {
      const element = box.current;
      if (!isPending || !element || element.disabled) return;
      isPending = false;
      if (document.activeElement !== element) element.focus();
    });
    if (box.current) enabled.observe(box.current, { attributes: true, attributeFilter: ['disabled'] });
    document.addEventListener('click', onClick);
    document.addEventListener('pointerdown', onElsewhere, true);
    document.addEventListener('focusin', onElsewhere);
    return () => {
      enabled.disconnect();
      document.removeEventListener('click', onClick);
      document.removeEventListener('pointerdown', onElsewhere, true);
      document.removeEventListener('focusin', onElsewhere);
    };
  }, [box]);
}
