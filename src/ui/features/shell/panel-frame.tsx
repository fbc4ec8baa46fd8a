import type { KeyboardEvent, ReactNode } from 'react';

/**
 * Holds an open panel (Servers, Settings): Escape anywhere in it closes it, unless something inside used the key.
 * Without `onClose` (Settings on first run, until a key is saved) it stays.
 */
export function PanelFrame({ onClose, children }: { onClose: (() => void) | undefined; children: ReactNode }) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (!onClose || event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onClose();
  };
  return (
    <div className="panel-frame" onKeyDown={onKeyDown}>
      {children}
    </div>
  );
}
