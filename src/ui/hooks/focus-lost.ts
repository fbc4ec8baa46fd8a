/**
 * Whether keyboard focus has fallen to the page: the element that had it went away (a button that hides itself once
 * pressed, a field that closes). Only then may the app move focus somewhere useful without taking it from the person.
 */
export function isFocusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}
