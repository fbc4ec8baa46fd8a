import type { KeyboardEvent, ReactNode } from 'react';
import { escapeCloses } from '../../components/escape-key';

/**
 * Holds an open panel (Servers, Settings): Escape anywhere in it closes it, unless something inside used the key
 * or it comes from a text field with text in it (a half-typed URL or token stays; Close still closes).
 * Without `onClose` (Settings on first run, until a key is saved) it stays.
 */
export function PanelFrame({ onClose, children }: { onClose: (() => void) | undefined; children: ReactNode }) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (!onClose || !escapeCloses(event)) return;
    event.preventDefault();
    onClose();
  };
  return (
    <div className="panel-frame" onKeyDown={onKeyDown}>
      {children}
    </div>
  );
}
