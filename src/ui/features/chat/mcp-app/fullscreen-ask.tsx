import { useState } from 'react';
import { GuardedButton } from '../../../components/guarded-button';

export interface FullscreenAskProps {
  readonly onAllow: () => void;
  readonly onDismiss: () => void;
}

/**
 * The app's ask to fill the screen, in the page's bar above the app's frame (never over it, never moving it). Allow
 * counts only from a pointer that came onto it after it appeared, a tap, or the keyboard: an app cannot ask just as
 * the person's click is on its way and have that click grant it.
 */
export function FullscreenAsk({ onAllow, onDismiss }: FullscreenAskProps) {
  const [isHeld, setIsHeld] = useState(false);
  return (
    <div className="mcp-app-ask" role="group" aria-label="The app asks to fill the screen">
      <span className="mcp-app-ask-text" role="status">
        {isHeld ? 'Move the pointer off Allow and back to allow' : 'The app asks to fill the screen'}
      </span>
      <GuardedButton onActivate={onAllow} onHeld={() => setIsHeld(true)}>
        Allow
      </GuardedButton>
      <button type="button" className="link-button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
