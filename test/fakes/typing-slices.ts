import type { BackgroundSlices } from '../../src/platform/background-slices';

/**
 * The page's background slices while a person types without a pause (see src/platform/background-slices.ts): every
 * wait for a pause (`idle`, `next`) holds until the work is hurried or they stop; a hurry wakes every wait held.
 */
export function typingSlices() {
  let isTyping = true;
  let hurried = 0;
  let hurries = 0;
  const waiters: (() => void)[] = [];
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  const idle = () =>
    !isTyping || hurried > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));
  const slices: BackgroundSlices = {
    now: () => performance.now(),
    isOver: () => true,
    idle,
    next: idle,
    hurry: () => {
      hurried++;
      hurries++;
      wakeAll();
      let isReleased = false;
      return () => {
        if (!isReleased) hurried--;
        isReleased = true;
      };
    },
  };
  return {
    slices,
    /** How many waits for a pause are held now. */
    get waiting() {
      return waiters.length;
    },
    /** How many times work was hurried. */
    get hurries() {
      return hurries;
    },
    stop: () => {
      isTyping = false;
      wakeAll();
    },
    /** The person types again: waits for a pause hold once more. */
    start: () => void (isTyping = true),
    /** One held wait (the oldest) goes on, as a short pause would let it. */
    letOneThrough: () => waiters.shift()?.(),
  };
}
