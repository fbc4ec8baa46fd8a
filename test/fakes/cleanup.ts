import { afterEach } from 'vitest';

export type CleanupStep = () => unknown;

/**
 * Registers an afterEach (call it at a test file's top level) that runs the steps added during each test, the
 * last added first; returns the function that adds them.
 */
export function cleanupAfterEach(): (...steps: CleanupStep[]) => void {
  let steps: CleanupStep[] = [];
  afterEach(async () => {
    const due = steps.reverse();
    steps = [];
    for (const step of due) await step();
  });
  return (...added) => void steps.push(...added);
}
