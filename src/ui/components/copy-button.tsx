import { useEffect, useState } from 'react';

/** How long the button says "Copied" after a copy. */
const COPIED_MS = 1500;

/**
 * Copies `text` to the clipboard. Its label says what it copies ("Copy code", "Copy message"); after a copy it reads
 * "Copied", and a clipboard the browser refuses reads "Copy failed" instead of failing silently.
 */
export function CopyButton({ text, label, className }: { text: string; label: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) return setState('failed');
    clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  const said = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : '';
  return (
    <>
      <button type="button" className={`copy secondary small ${className ?? ''}`} onClick={copy} aria-label={label}>
        {said || 'Copy'}
      </button>
      {/* The button's name stays what it copies: the outcome is said aloud here. */}
      <span className="visually-hidden" role="status">
        {said}
      </span>
    </>
  );
}
