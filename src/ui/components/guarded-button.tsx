import { useRef, type MouseEvent, type PointerEvent, type ReactNode } from 'react';

export interface GuardedButtonProps {
  /** Runs on a click the person meant. */
  readonly onActivate: () => void;
  /** Runs on a click that did not count (the pointer was already there when the button appeared). */
  readonly onHeld?: () => void;
  readonly className?: string;
  readonly children: ReactNode;
}

/**
 * A button that grants something a page's content asked for, guarded against clickjacking the way browsers guard
 * their permission prompts: it ignores a pointer's click until that pointer has come onto it, by moving, after it
 * appeared. A pointer that was resting where it appeared does not count (the browser reports it as entering, with no
 * move: it must leave and come back), nor does a press on it take the focus. A finger's tap counts (nothing hovers
 * on a touch screen), and so does the keyboard: Tab onto it and Enter or Space, or an assistive technology's press.
 */
export function GuardedButton({ onActivate, onHeld, className, children }: GuardedButtonProps) {
  // Where the pointer entered, and whether that entry was a move onto the button (cleared when the pointer leaves).
  const entered = useRef<{ readonly x: number; readonly y: number } | undefined>(undefined);
  const isPointerArmed = useRef(false);
  const isKeyboardArmed = useRef(false);
  return (
    <button
      type="button"
      className={className}
      onPointerEnter={(event) => (entered.current = { x: event.clientX, y: event.clientY })}
      onPointerLeave={() => {
        entered.current = undefined;
        isPointerArmed.current = false;
      }}
      // A real entry brings a move at the very point it entered; a button appearing under a resting pointer does not.
      onPointerMove={(event: PointerEvent) => {
        if (entered.current?.x === event.clientX && entered.current.y === event.clientY) isPointerArmed.current = true;
      }}
      onPointerDown={(event) => {
        if (event.pointerType === 'touch') isPointerArmed.current = true;
      }}
      onMouseDown={(event) => {
        if (!isPointerArmed.current) event.preventDefault();
      }}
      onFocus={(event) => (isKeyboardArmed.current = event.currentTarget.matches(':focus-visible'))}
      onBlur={() => (isKeyboardArmed.current = false)}
      onClick={(event: MouseEvent) => {
        // No pointer behind it (detail 0): Enter or Space on the focused button, or an assistive technology's press.
        if (isPointerArmed.current || isKeyboardArmed.current || event.detail === 0) onActivate();
        else onHeld?.();
      }}
    >
      {children}
    </button>
  );
}
