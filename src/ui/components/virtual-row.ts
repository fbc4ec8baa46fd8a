import type { VirtualItem } from '@tanstack/react-virtual';

/**
 * What every row of a virtualized list carries besides its key: its index (which the virtualizer measures it by), its
 * place for a screen reader (only the rows near the view are in the page, yet it still hears "5 of 400"), the
 * virtualizer's measuring ref, and its offset in the list.
 */
export function virtualRowProps(row: VirtualItem, count: number, measure: (node: Element | null) => void) {
  return {
    'data-index': row.index,
    'aria-setsize': count,
    'aria-posinset': row.index + 1,
    ref: measure,
    style: { transform: `translateY(${row.start}px)` },
  };
}
