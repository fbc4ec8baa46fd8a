import { useRef } from 'react';
import type { Message } from '../../../domain/message';
import { isShown } from './turns';

/**
 * The thread as whole-thread derivations (tool index, turn traces, token totals) see it. While an answer
 * streams only its blocks grow, so the array from before the delta is kept and they are not recomputed.
 */
export function useThreadShape(messages: readonly Message[]): readonly Message[] {
  const shape = useRef(messages);
  if (shape.current !== messages && !isSameShape(shape.current, messages)) shape.current = messages;
  return shape.current;
}

/** Same messages, but for the last one streaming on: same id, trace and visibility. */
export function isSameShape(before: readonly Message[], after: readonly Message[]): boolean {
  if (before.length !== after.length || after.length === 0) return false;
  const last = after.length - 1;
  for (let i = 0; i < last; i++) if (before[i] !== after[i]) return false;
  const [a, b] = [before[last]!, after[last]!];
  return (
    a.id === b.id &&
    a.status === 'streaming' &&
    b.status === 'streaming' &&
    a.trace === b.trace &&
    isShown(a) === isShown(b)
  );
}
