/** Where things are on the page, as a person sees them: for the browser tests of the chat's layout. */
import type { Locator } from 'playwright-core';

/** How far the messages are from their end, in pixels (0: at the end). */
export const distanceToEndOf = (scroller: Locator) =>
  scroller.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
/** The element is wholly inside the message list's visible part. */
export const isWhollyInList = (locator: Locator) =>
  locator.evaluate((element) => {
    const list = element.closest('.message-scroller')!.getBoundingClientRect();
    const r = element.getBoundingClientRect();
    return r.top >= list.top - 1 && r.bottom <= list.bottom + 1 && r.height > 0;
  });
/** The element is wholly in the window and is what shows at its middle (nothing covers it). */
export const isOnScreen = (locator: Locator) =>
  locator.evaluate((element) => {
    const r = element.getBoundingClientRect();
    const inWindow = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    return inWindow && element.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
  });
/** The element has the keyboard focus. */
export const hasFocus = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
