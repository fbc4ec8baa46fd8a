import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { Message } from '../../../domain/message';
import type { Reveal } from '../../../stores/chat-store';

/** The name of the CSS highlight that marks a found message's words (styled by `::highlight(found-words)`). */
const HIGHLIGHT = 'found-words';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `words` stand in the text under `root` (case and spacing aside), each within one run of text. */
export function rangesOf(root: Node, words: string): Range[] {
  const parts = words.trim().split(/\s+/).filter(Boolean).map(escapeRegExp);
  if (parts.length === 0) return [];
  const pattern = new RegExp(parts.join('\\s+'), 'gi');
  const walker = root.ownerDocument!.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const ranges: Range[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const found of (node.nodeValue ?? '').matchAll(pattern)) {
      const range = root.ownerDocument!.createRange();
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      ranges.push(range);
    }
  }
  return ranges;
}

const canHighlight = () => typeof Highlight !== 'undefined' && typeof CSS !== 'undefined' && 'highlights' in CSS;

/**
 * Brings the message a search found into view once its thread shows it: its row to the middle of the list, its words
 * marked, and the first of them into view when the message is taller than the list. The list stops following the
 * end (`letGo`: "Jump to latest" goes back). Returns the found message's id, for its row to show it.
 */
export function useReveal({
  reveal,
  visible,
  virtualizer,
  scroller,
  letGo,
}: {
  readonly reveal: Reveal | undefined;
  readonly visible: readonly Message[];
  readonly virtualizer: Virtualizer<HTMLDivElement, Element>;
  readonly scroller: RefObject<HTMLDivElement | null>;
  readonly letGo: () => void;
}): string | undefined {
  const [target, setTarget] = useState<{ readonly reveal: Reveal; readonly index: number }>();
  // Each find is brought into view once: after that the list is the person's to scroll.
  const shown = useRef<Reveal>(undefined);
  useLayoutEffect(() => {
    if (!reveal || shown.current === reveal) return;
    const index = visible.findIndex((message) => message.id === reveal.messageId);
    if (index < 0) return;
    shown.current = reveal;
    letGo();
    virtualizer.scrollToIndex(index, { align: 'center' });
    setTarget({ reveal, index });
  }, [reveal, visible, virtualizer, letGo]);
  // Once its row is in the page (the virtualizer renders it after the scroll): its words marked, the first in view.
  const marked = useRef<Reveal>(undefined);
  useEffect(() => {
    const box = scroller.current;
    if (!target || marked.current === target.reveal || !box) return;
    const row = box.querySelector(`[data-index="${target.index}"] .message`);
    if (!row) return;
    marked.current = target.reveal;
    const ranges = rangesOf(row, target.reveal.words);
    if (canHighlight()) CSS.highlights.set(HIGHLIGHT, new Highlight(...ranges));
    const first = ranges[0]?.getBoundingClientRect();
    const view = box.getBoundingClientRect();
    if (first && (first.top < view.top || first.bottom > view.bottom))
      virtualizer.scrollToOffset(box.scrollTop + first.top - view.top - view.height / 3);
  });
  useEffect(() => () => void (canHighlight() && CSS.highlights.delete(HIGHLIGHT)), []);
  return target?.reveal.messageId;
}
