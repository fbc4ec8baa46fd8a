/** An abort signal that counts the abort listeners added to it and not removed yet (a leak shows as a count left). */
export function countingSignal() {
  const controller = new AbortController();
  const { signal } = controller;
  let listeners = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<typeof add>) => (listeners++, add(...args));
  signal.removeEventListener = (...args: Parameters<typeof remove>) => (listeners--, remove(...args));
  return { controller, signal, listeners: () => listeners };
}
