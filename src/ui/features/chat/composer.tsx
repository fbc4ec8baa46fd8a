import { useState, type KeyboardEvent } from 'react';

/** The message box: Enter sends, Shift+Enter makes a new line; Stop while a turn runs. */
export function Composer({ isRunning, isDisabled, onSend, onStop }: { isRunning: boolean; isDisabled: boolean; onSend: (text: string) => void; onStop: () => void }) {
  const [text, setText] = useState('');
  const send = () => {
    if (!text.trim() || isRunning || isDisabled) return;
    onSend(text);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <div className="composer">
      <textarea
        aria-label="Message"
        placeholder={isDisabled ? 'Create or open a thread to start' : 'Ask anything (Enter sends, Shift+Enter for a new line)'}
        value={text}
        maxLength={100_000}
        rows={3}
        disabled={isDisabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {isRunning ? (
        <button type="button" onClick={onStop} className="secondary">
          Stop
        </button>
      ) : (
        <button type="button" onClick={send} disabled={isDisabled || !text.trim()}>
          Send
        </button>
      )}
    </div>
  );
}
