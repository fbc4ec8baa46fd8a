import { useCallback, useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { PromptOption } from '../../../stores/prompts-store';

/** What the composer's `/` list shows: the thread's prompts, and what is still loading or failed. */
export interface SlashMenuSource {
  readonly options: (query: string) => PromptOption[];
  /** A server of the thread declares prompts: the message box says `/` picks one. */
  readonly hasPrompts: boolean;
  /** Servers still listing their prompts. */
  readonly isLoading: boolean;
  /** Servers that could not list their prompts, each said in a sentence. */
  readonly problems: readonly string[];
  /** The list opened: servers not listed yet are asked. */
  readonly onOpen: () => void;
  readonly onPick: (option: PromptOption) => void;
}

/** A `/` typed at the start of an otherwise empty box opens the list; what follows filters it. */
const slashQuery = (text: string): string | undefined => /^\/(\S*)$/u.exec(text)?.[1];

/**
 * The composer's `/` menu, driven from the message box like the `@` list: arrows move, Enter or Tab picks, Escape
 * closes. `handleKey` answers true when it used the key.
 */
export function useSlashMenu(text: string, source: SlashMenuSource | undefined, isEnabled: boolean, clear: () => void) {
  const listId = useId();
  const [dismissedAt, setDismissedAt] = useState<string>();
  // Escape closes the list for the text it was pressed on; any other text (the box emptied, then `/` typed again)
  // lets it open again.
  if (dismissedAt !== undefined && dismissedAt !== text) setDismissedAt(undefined);
  const query = slashQuery(text);
  // The active option is remembered with the query it was chosen for: a new query starts at the top.
  const [chosen, setChosen] = useState({ query: '', index: 0 });
  const activeIndex = chosen.query === query ? chosen.index : 0;
  const setActiveIndex = (index: number) => setChosen({ query: query ?? '', index });
  const isOpen = query !== undefined && source !== undefined && isEnabled && dismissedAt !== text;
  const options = isOpen ? source.options(query) : [];
  const active = Math.min(activeIndex, Math.max(options.length - 1, 0));
  const optionId = useCallback((index: number) => `${listId}-prompt-${index}`, [listId]);
  const onOpen = source?.onOpen;
  useEffect(() => {
    if (isOpen) onOpen?.();
  }, [isOpen, onOpen]);
  const pick = (option: PromptOption) => {
    clear();
    source?.onPick(option);
  };
  const handleKey = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!isOpen) return false;
    if (event.key === 'Escape') {
      event.preventDefault();
      setDismissedAt(text);
      return true;
    }
    if (options.length === 0) return false;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
    if (event.key in moves) {
      event.preventDefault();
      setActiveIndex((active + moves[event.key]! + options.length) % options.length);
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      event.preventDefault();
      pick(options[active]!);
      return true;
    }
    return false;
  };
  return { isOpen, options, active, listId, optionId, handleKey, pick, query: query ?? '' };
}

export interface PromptMenuProps {
  readonly menu: ReturnType<typeof useSlashMenu>;
  readonly source: SlashMenuSource;
}

/** The `/` list under the message box: a listbox the box drives with aria-activedescendant. */
export function PromptMenu({ menu, source }: PromptMenuProps) {
  const { options, active, listId, optionId, pick, query } = menu;
  useEffect(() => {
    document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  }, [active, optionId]);
  const problems = source.problems.map((problem) => (
    <p key={problem} className="field-error prompt-problem" role="alert">
      {problem}
    </p>
  ));
  if (options.length === 0)
    return (
      <div className="mention-popup mention-empty muted" id={listId}>
        {source.isLoading
          ? 'Listing the prompts of this thread’s servers…'
          : `No prompt of this thread’s servers matches “${query}”.`}
        {problems}
      </div>
    );
  return (
    <div className="mention-popup prompt-popup">
      <ul role="listbox" id={listId} aria-label="Prompts of this thread’s servers">
        {options.map((option, index) => (
          <li
            key={option.key}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className="mention-option mention-prompt"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(option)}
          >
            <span className="mention-label">/{option.label}</span>
            <span className="muted mention-detail">{option.detail}</span>
          </li>
        ))}
      </ul>
      {problems}
    </div>
  );
}
