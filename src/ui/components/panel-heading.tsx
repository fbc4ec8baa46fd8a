import { createContext, useContext } from 'react';

/**
 * Asks a panel's heading to take the focus as it appears: set when the person opens the panel with its header button,
 * so the next Tab goes on inside the panel rather than through the thread list first. `take` answers once.
 */
export const PanelFocusRequest = createContext<{ take(): boolean } | undefined>(undefined);

/** A panel's heading row: its title and, when the panel can be closed, a Close button at the end of the row. */
export function PanelHeading({
  id,
  title,
  onClose,
}: {
  id: string;
  title: string;
  onClose?: (() => void) | undefined;
}) {
  const focusRequest = useContext(PanelFocusRequest);
  return (
    <div className="panel-heading">
      <h2 id={id} tabIndex={-1} ref={(element) => void (element && focusRequest?.take() && element.focus())}>
        {title}
      </h2>
      {onClose && (
        <button type="button" className="secondary small" onClick={onClose}>
          Close
        </button>
      )}
    </div>
  );
}
