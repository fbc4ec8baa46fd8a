import { useEffect } from 'react';
import type { MentionOption } from '../../../stores/mention-options';

export interface MentionListProps {
  readonly id: string;
  readonly options: readonly MentionOption[];
  readonly activeIndex: number;
  readonly query: string;
  readonly optionId: (index: number) => string;
  readonly onPick: (option: MentionOption) => void;
}

/** The `@` suggestions under the message box: a listbox the box drives with aria-activedescendant. */
export function MentionList({ id, options, activeIndex, query, optionId, onPick }: MentionListProps) {
  useEffect(() => {
    // The box keeps focus, so the active option is brought into view by hand.
    document.getElementById(optionId(activeIndex))?.scrollIntoView?.({ block: 'nearest' });
  }, [activeIndex, optionId]);
  if (options.length === 0) {
    return (
      <p className="mention-popup mention-empty muted" id={id}>
        No server or tool of this thread matches “{query}”.
      </p>
    );
  }
  return (
    <ul className="mention-popup" role="listbox" id={id} aria-label="Servers and tools to mention">
      {options.map((option, index) => (
        <li
          key={option.key}
          id={optionId(index)}
          role="option"
          aria-selected={index === activeIndex}
          className={`mention-option mention-${option.kind}`}
          // Keeps the focus (and the caret) in the message box.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(option)}
        >
          <span className="mention-label">
            {option.kind === 'server' ? '@' : ''}
            {option.label}
          </span>
          <span className="muted mention-detail">{option.detail}</span>
        </li>
      ))}
    </ul>
  );
}
