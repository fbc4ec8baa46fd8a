import { useId } from 'react';
import { promptLabel } from '../../../domain/prompts';
import type { ChosenPrompt, PromptActions } from '../../../stores/prompts-store';
import './prompts.css';

export interface PromptFormProps {
  readonly chosen: ChosenPrompt;
  readonly actions: PromptActions;
  /** The prompt as text for the message box (Insert). */
  readonly onInsert: (text: string) => void;
  readonly isTurnRunning: boolean;
}

/**
 * The arguments of the prompt picked from `/`, with the server's suggestions (completion/complete) under each, then
 * Insert (its text into the message box) or Send (its messages as the turn, roles and content kept).
 */
export function PromptForm({ chosen, actions, onInsert, isTurnRunning }: PromptFormProps) {
  const id = useId();
  const { prompt } = chosen;
  const insert = async () => {
    const text = await actions.run('insert');
    if (text !== undefined) onInsert(text);
  };
  return (
    <form
      className="prompt-form"
      aria-label={`Prompt ${promptLabel(prompt)} from ${prompt.serverName}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!isTurnRunning) void actions.run('send');
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') actions.cancel();
      }}
    >
      <p>
        <strong>/{promptLabel(prompt)}</strong> <span className="muted">from {prompt.serverName}</span>
      </p>
      {prompt.description && <p className="muted prompt-description">{prompt.description}</p>}
      {prompt.arguments.map((arg, index) => {
        const inputId = `${id}-${index}`;
        const suggestions = chosen.suggestions[arg.name] ?? [];
        const label = `${arg.title ?? arg.name}${arg.isRequired ? ' (required)' : ''}`;
        return (
          <div key={arg.name} className="prompt-argument">
            <label htmlFor={inputId}>{label}</label>
            <input
              id={inputId}
              autoFocus={index === 0}
              autoComplete="off"
              value={chosen.values[arg.name] ?? ''}
              aria-describedby={arg.description ? `${inputId}-help` : undefined}
              onChange={(event) => void actions.setValue(arg.name, event.target.value)}
              // Asked again on focus: the server's suggestions can depend on the arguments filled in since.
              onFocus={(event) => void actions.setValue(arg.name, event.target.value)}
            />
            {arg.description && (
              <p id={`${inputId}-help`} className="muted">
                {arg.description}
              </p>
            )}
            {suggestions.length > 0 && (
              <div className="prompt-suggestions" role="group" aria-label={`Suggestions for ${arg.title ?? arg.name}`}>
                {suggestions.slice(0, 12).map((value) => (
                  <button
                    key={value}
                    type="button"
                    className="secondary small"
                    onClick={() => {
                      // The chips are drawn anew for the value: the keyboard goes back to the field they fill (first,
                      // as the field asks the server again on focus with what it holds).
                      document.getElementById(inputId)?.focus();
                      void actions.setValue(arg.name, value);
                    }}
                  >
                    {value}
                  </button>
                ))}
              </div>
            )}
          </div>
        );
      })}
      {chosen.error && (
        <p className="field-error" role="alert">
          {chosen.error}
        </p>
      )}
      {/* While it runs the buttons say so but keep the focus (a disabled one would drop it to the page, and Escape
          would no longer reach the form); a press meanwhile does nothing. */}
      <div className="approval-actions">
        <button
          type="submit"
          autoFocus={prompt.arguments.length === 0}
          aria-disabled={chosen.isRunning || isTurnRunning}
        >
          Send prompt
        </button>
        <button type="button" className="secondary" aria-disabled={chosen.isRunning} onClick={() => void insert()}>
          Insert into message
        </button>
        <button type="button" className="secondary" onClick={() => actions.cancel()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
