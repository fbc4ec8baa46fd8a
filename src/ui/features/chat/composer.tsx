import {
  useCallback,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { MAX_MESSAGE_CHARS, setDraft, takeDraft, type DraftStore } from '../../../stores/draft';
import type { MentionOption } from '../../../stores/mention-options';
import { useStore } from '../../hooks/use-store';
import { MentionList } from './mention-list';
import { useStopFocus } from './use-stop-focus';
import { activeMention, applyMention, removeMention, type ActiveMention } from './mention-text';
import { PromptMenu, useSlashMenu, type SlashMenuSource } from './slash-menu';
import './composer-limit.css';

/** The message box's id: the page's skip link goes to it. */
export const MESSAGE_BOX_ID = 'message-box';

export interface ComposerProps {
  /** The text in the box; kept in a store so that what is typed while storage opens stays. */
  readonly draft: DraftStore;
  readonly isRunning: boolean;
  /** Storage still opening: the box takes typing, but Send and Enter wait (nothing is sent, nothing is lost). */
  readonly isSendHeld?: boolean;
  /** Another thread's answer is being written: Send and Enter wait; the @ and / lists still work. */
  readonly isSendPaused?: boolean;
  readonly onSend: (text: string) => void;
  readonly onStop: () => void;
  /** The thread's servers and tools for an `@` mention, filtered by what follows the `@`. */
  readonly mentionOptions: (query: string) => MentionOption[];
  /** The message box itself, for moving focus to it (after Retry, whose button goes away). */
  readonly boxRef?: RefObject<HTMLTextAreaElement | null>;
  /** The thread's servers' prompts for a `/` at the start of the box. */
  readonly slashMenu?: SlashMenuSource;
  /** Attachments wait to be sent: Send works with an empty box too. */
  readonly hasAttachments?: boolean;
  /** More buttons beside Send (Attach files). */
  readonly extraButtons?: ReactNode;
  /** A resource or template picked from the `@` list: attached, its `@` text taken out of the box. */
  readonly onPickResource?: (option: MentionOption) => void;
  /** No API key is saved yet: Send keeps the text, says so beside the box and calls `onNeedsApiKey` (to the key field). */
  readonly needsApiKey?: boolean;
  readonly onNeedsApiKey?: () => void;
}

/** Said beside the box when Send is pressed before an API key is saved. */
export const NEEDS_API_KEY_NOTE =
  'Not sent: add your Anthropic API key in Settings and Save it first. Your message stays here.';

/**
 * The message box: Enter sends, Shift+Enter makes a new line; Stop while a turn runs. Typing `@` lists the thread's
 * servers and tools (arrows move, Enter or Tab picks, Escape closes); a mention loads those tools for the turn.
 */
export function Composer({
  draft,
  isRunning,
  isSendHeld = false,
  isSendPaused = false,
  onSend,
  onStop,
  mentionOptions,
  boxRef,
  slashMenu,
  hasAttachments = false,
  extraButtons,
  onPickResource,
  needsApiKey = false,
  onNeedsApiKey,
}: ComposerProps) {
  const text = useStore(draft, (s) => s.text);
  const setText = (next: string) => setDraft(draft, next);
  const [mention, setMention] = useState<ActiveMention>();
  const [dismissedAt, setDismissedAt] = useState<number>();
  const [activeIndex, setActiveIndex] = useState(0);
  const [isKeyNoteShown, setKeyNoteShown] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const nextCaret = useRef<number>(undefined);
  const stopButton = useStopFocus(isRunning, box);
  const ids = { list: useId(), hint: useId() };
  const optionId = useCallback((index: number) => `${ids.list}-option-${index}`, [ids.list]);

  const isOpen = mention !== undefined && dismissedAt !== mention.start && !isSendHeld;
  const options = isOpen ? mentionOptions(mention.query) : [];
  const active = Math.min(activeIndex, Math.max(options.length - 1, 0));
  const slash = useSlashMenu(text, slashMenu, !isSendHeld, () => setText(''));

  // After a pick the caret goes right after the inserted name.
  useLayoutEffect(() => {
    if (nextCaret.current === undefined || !box.current) return;
    box.current.setSelectionRange(nextCaret.current, nextCaret.current);
    nextCaret.current = undefined;
  }, [text]);

  const track = (value: string, caret: number) => {
    const next = activeMention(value, caret);
    if (next?.start !== mention?.start || next?.query !== mention?.query) setActiveIndex(0);
    setMention(next);
    if (next?.start !== dismissedAt) setDismissedAt(undefined);
  };
  const send = () => {
    if (isRunning || isSendHeld || isSendPaused) return;
    if (needsApiKey) {
      // Nothing is taken from the box and no thread is made: the model cannot be asked without a key.
      if (!text.trim() && !hasAttachments) return;
      setKeyNoteShown(true);
      onNeedsApiKey?.();
      return;
    }
    const taken = takeDraft(draft) ?? (hasAttachments ? '' : undefined);
    if (taken === undefined) return;
    onSend(taken);
    setMention(undefined);
  };
  const pick = (option: MentionOption) => {
    if (!mention || !box.current) return;
    if (option.resource && onPickResource) {
      const without = removeMention(text, mention, box.current.selectionStart);
      nextCaret.current = without.caret;
      setText(without.text);
      setMention(undefined);
      onPickResource(option);
      return;
    }
    const applied = applyMention(text, mention, box.current.selectionStart, option.insert);
    nextCaret.current = applied.caret;
    setText(applied.text);
    setMention(undefined);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (slash.handleKey(event)) return;
    if (isOpen && options.length > 0) {
      const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
      if (event.key in moves) {
        event.preventDefault();
        setActiveIndex((active + moves[event.key]! + options.length) % options.length);
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        event.preventDefault();
        pick(options[active]!);
        return;
      }
    }
    if (isOpen && event.key === 'Escape') {
      event.preventDefault();
      setDismissedAt(mention.start);
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  return (
    <div className="composer">
      {isOpen && (
        <MentionList
          id={ids.list}
          options={options}
          activeIndex={active}
          query={mention.query}
          optionId={optionId}
          onPick={pick}
        />
      )}
      {slash.isOpen && slashMenu && <PromptMenu menu={slash} source={slashMenu} />}
      <textarea
        ref={(node) => {
          box.current = node;
          if (boxRef) boxRef.current = node;
        }}
        id={MESSAGE_BOX_ID}
        aria-label="Message"
        aria-describedby={ids.hint}
        aria-autocomplete="list"
        aria-controls={isOpen ? ids.list : slash.isOpen ? slash.listId : undefined}
        aria-activedescendant={
          isOpen && options.length > 0
            ? optionId(active)
            : slash.isOpen && slash.options.length > 0
              ? slash.optionId(slash.active)
              : undefined
        }
        placeholder={`Ask anything; @ mentions a server or tool${slashMenu?.hasPrompts ? ', / picks a prompt' : ''}`}
        value={text}
        maxLength={MAX_MESSAGE_CHARS}
        rows={3}
        onChange={(e) => {
          setText(e.target.value);
          track(e.target.value, e.target.selectionStart);
        }}
        onSelect={(e) => track(e.currentTarget.value, e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => setMention(undefined)}
      />
      {text.length >= MAX_MESSAGE_CHARS && (
        <p className="composer-limit field-error" role="alert">
          A message can hold at most 100,000 characters; the rest was left out.
        </p>
      )}
      {needsApiKey && isKeyNoteShown && (
        <p className="composer-limit field-error" role="alert">
          {NEEDS_API_KEY_NOTE}
        </p>
      )}
      <p id={ids.hint} className="visually-hidden">
        Enter sends, Shift+Enter makes a new line. Type @ to mention a server or tool of this thread, or / at the start
        to use a prompt of its servers.
      </p>
      <p className="visually-hidden" role="status">
        {isOpen
          ? options.length === 0
            ? 'No matches'
            : `${options.length} ${options.length === 1 ? 'suggestion' : 'suggestions'}`
          : slash.isOpen
            ? `${slash.options.length} ${slash.options.length === 1 ? 'prompt' : 'prompts'}`
            : ''}
      </p>
      {extraButtons}
      {isRunning ? (
        // Two buttons, not one relabelled: a Send made disabled under the focus would drop it only later.
        <button key="stop" type="button" ref={stopButton} onClick={onStop} className="secondary">
          Stop
        </button>
      ) : (
        <button
          key="send"
          type="button"
          onClick={send}
          disabled={isSendHeld || isSendPaused || (!text.trim() && !hasAttachments)}
        >
          Send
        </button>
      )}
    </div>
  );
}
