import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { Message } from '../../../domain/message';
import type { Reveal } from '../../../stores/chat-store';

/** The name of the CSS highlight that marks a found message's words (styled by `::highlight(found-words)`). */
const HIGHLIGHT = 'found-words';
/** Where a message's own text is drawn (the person's, an answer's Markdown): not its tool cards, which search skips. */
const TEXT = '.user-text, .markdown';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `words` stand in the text under `root`, case and spacing aside: a match may run across elements (bold, a
 * link, inline code), so each range may start and end in different text nodes.
 */
export function rangesOf(root: Node, words: string): Range[] {
  const parts = words.trim().split(/\s+/).filter(Boolean).map(escapeRegExp);
  const doc = root.ownerDocument;
  if (parts.length === 0 || !doc) return [];
  const nodes: Node[] = [];
  const starts: number[] = [];
  let text = '';
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node);
    starts.push(text.length);
    text += node.nodeValue ?? '';
  }
  // The text node an offset of the joined text falls in, and the offset in it (an end at a node's end stays in it).
  const at = (offset: number, isEnd: boolean): [Node, number] => {
    let i = nodes.length - 1;
    while (i > 0 && (isEnd ? starts[i]! >= offset : starts[i]! > offset)) i--;
    return [nodes[i]!, offset - starts[i]!];
  };
  return [...text.matchAll(new RegExp(parts.join('\\s+'), 'gi'))].map((found) => {
    const range = doc.createRange();
    range.setStart(...at(found.index, false));
    range.setEnd(...at(found.index + found[0].length, true));
    return range;
  });
}

const canHighlight = () => typeof Highlight !== 'undefined' && typeof CSS !== 'undefined' && 'highlights' in CSS;
const clearHighlight = () => void (canHighlight() && CSS.highlights.delete(HIGHLIGHT));

/**
 * Brings the message a search found into view once its thread shows it: its row to the middle of the list, its words
 * marked, and the first of them into view when the message is taller than the list. The list stops following the end
 * (`letGo`: "Jump to latest" goes back) unless the found message is at the end anyway (`settle` then follows it
 * again). Returns the found message's id, for its row to show it, and a line for a screen reader.
 */
export function useReveal({
  reveal,
  visible,
  virtualizer,
  scroller,
  letGo,
  settle,
}: {
  readonly reveal: Reveal | undefined;
  readonly visible: readonly Message[];
  readonly virtualizer: Virtualizer<HTMLDivElement, Element>;
  readonly scroller: RefObject<HTMLDivElement | null>;
  readonly letGo: () => void;
  readonly settle: () => void;
}): { readonly foundId: string | undefined; readonly said: string } {
  const [target, setTarget] = useState<{ readonly reveal: Reveal; readonly index: number }>();
  // Each find is brought into view once: after that the list is the person's to scroll.
  const shown = useRef<Reveal>(undefined);
  useLayoutEffect(() => {
    if (!reveal) {
      // The thread opened again without a find: nothing stays outlined or marked.
      shown.current = undefined;
      setTarget(undefined);
      clearHighlight();
      return;
    }
    if (shown.current === reveal) return;
    const index = visible.findIndex((message) => message.id === reveal.messageId);
    if (index < 0) return;
    shown.current = reveal;
    letGo();
    virtualizer.scrollToIndex(index, { align: 'center' });
    setTarget({ reveal, index });
  }, [reveal, visible, virtualizer, letGo]);
  // Once its row is in the page (the virtualizer draws it after the scroll): its words marked, the first in view. A
  // row drawn anew (scrolled away and back) has new text, which is marked again, without moving the list.
  const marked = useRef<Reveal>(undefined);
  useEffect(() => {
    const box = scroller.current;
    const row = target && box?.querySelector(`[data-index="${target.index}"] .message`);
    if (!target || !box || !row) return;
    const isFirst = marked.current !== target.reveal;
    const old = canHighlight() ? CSS.highlights.get(HIGHLIGHT) : undefined;
    if (!isFirst && (!old || [...old].every((range) => (range as Range).startContainer.isConnected))) return;
    marked.current = target.reveal;
    const ranges = [...row.querySelectorAll(TEXT)].flatMap((text) => rangesOf(text, target.reveal.words));
    if (canHighlight()) CSS.highlights.set(HIGHLIGHT, new Highlight(...ranges));
    if (!isFirst) return;
    const first = ranges[0]?.getBoundingClientRect();
    const view = box.getBoundingClientRect();
    if (first && (first.top < view.top || first.bottom > view.bottom))
      virtualizer.scrollToOffset(box.scrollTop + first.top - view.top - view.height / 3);
    settle();
  });
  useEffect(() => clearHighlight, []);
  return {
    foundId: target?.reveal.messageId,
    said: target ? `Showing the message found for “${target.reveal.words}”.` : '',
  };
}
