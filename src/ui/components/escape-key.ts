import type { KeyboardEvent } from 'react';

/** Kinds of input a person types text into (a number field or a switch holds nothing that Escape would lose). */
const TEXT_INPUTS = new Set(['text', 'url', 'password', 'search', 'email', 'tel']);

/** Whether `target` is a text field holding text: closing what holds it would throw that text away. */
function holdsTypedText(target: EventTarget): boolean {
  if (target instanceof HTMLTextAreaElement) return target.value !== '';
  return target instanceof HTMLInputElement && TEXT_INPUTS.has(target.type) && target.value !== '';
}

/**
 * Whether an Escape key press should close the panel or menu it happened in: not when something inside already used
 * the key, not while an input method is composing, and not from a text field with text in it (a half-typed URL,
 * token or prompt stays; the close button still closes).
 */
export function escapeCloses(event: KeyboardEvent): boolean {
  if (event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing) return false;
  return !holdsTypedText(event.target);
}
