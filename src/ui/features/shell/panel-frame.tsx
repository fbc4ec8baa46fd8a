import type { KeyboardEvent, ReactNode } from 'react';

/** Kinds of input a person types text into (a number field or a switch holds nothing that Escape would lose). */
const TEXT_INPUTS = new Set(['text', 'url', 'password', 'search', 'email', 'tel']);

/** Whether `target` is a text field holding text: closing the panel would throw that text away. */
function holdsTypedText(target: EventTarget): boolean {
  if (target instanceof HTMLTextAreaElement) return target.value !== '';
  return target instanceof HTMLInputElement && TEXT_INPUTS.has(target.type) && target.value !== '';
}

/**
 * Holds an open panel (Servers, Settings): Escape anywhere in it closes it, unless something inside used the key
 * or it comes from a text field with text in it (a half-typed URL or token stays; Close still closes).
 * Without `onClose` (Settings on first run, until a key is saved) it stays.
 */
export function PanelFrame({ onClose, children }: { onClose: (() => void) | undefined; children: ReactNode }) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (!onClose || event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing) return;
    if (holdsTypedText(event.target)) return;
    event.preventDefault();
    onClose();
  };
  return (
    <div className="panel-frame" onKeyDown={onKeyDown}>
      {children}
    </div>
  );
}
