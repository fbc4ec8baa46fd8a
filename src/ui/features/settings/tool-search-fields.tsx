import { useId } from 'react';
import type { ToolSearchSettings } from '../../../domain/tool-search-settings';
import type { ToolSearchInput } from '../../../stores/settings';

const CHOICES = {
  mode: [
    ['client', 'Client'],
    ['anthropic', 'Anthropic API'],
    ['server', 'Server-side search'],
  ],
  strategy: [
    ['bm25', 'BM25'],
    ['regex', 'Regex'],
  ],
  deferral: [
    ['auto', 'Auto'],
    ['always', 'Always'],
    ['never', 'Never'],
  ],
} as const;

/** One line per tool-search mode on what it costs and gains. */
const MODE_TRADE_OFFS: Record<ToolSearchSettings['mode'], string> = {
  client:
    'This app searches and each call carries only the tools found: works with any endpoint, but a newly loaded tool makes the next call write the cached conversation again.',
  anthropic:
    'Every tool is sent deferred and this app’s search names what the API should load: the tool list never changes, so the cache holds; the endpoint must support deferred tools.',
  server:
    'Every tool is deferred and the API’s own tool search finds them: no search in the page and the cache holds, but the ranking is the API’s and the model must offer tool search.',
};

const HINTS: Record<ChoiceField, string> = {
  mode: 'How the model finds tools when they are deferred.',
  strategy: 'BM25 ranks by words; regex matches a pattern.',
  deferral: 'Auto defers when the tools are many or large; never sends every tool.',
};

type ChoiceField = keyof typeof CHOICES;

/** The form's tool-search values as typed. */
export function toolSearchInput(settings: ToolSearchSettings): ToolSearchInput {
  return { ...settings, preloadCount: String(settings.preloadCount), loadedToolCap: String(settings.loadedToolCap) };
}

export interface ToolSearchFieldsProps {
  readonly value: ToolSearchInput;
  readonly defaults: ToolSearchSettings;
  readonly errors: Readonly<Record<string, string>>;
  readonly onChange: (value: ToolSearchInput) => void;
  readonly canReset: boolean;
  readonly onReset: () => void;
}

/** How tool definitions reach the model; each field shows the app's default and its own error. */
export function ToolSearchFields({ value, defaults, errors, onChange, canReset, onReset }: ToolSearchFieldsProps) {
  const base = useId();
  const set = (field: keyof ToolSearchInput, next: string) => onChange({ ...value, [field]: next });
  const label = (field: ChoiceField) => CHOICES[field].find(([v]) => v === defaults[field])?.[1] ?? defaults[field];

  const select = (field: ChoiceField, title: string) => {
    const id = `${base}-${field}`;
    const error = errors[`toolSearch.${field}`];
    return (
      <div className="settings-field">
        <label htmlFor={id}>{title}</label>
        <select
          id={id}
          value={value[field]}
          onChange={(e) => set(field, e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint`}
        >
          {CHOICES[field].map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
        <small id={`${id}-hint`} className="muted">
          {HINTS[field]} App default: {label(field)}.
        </small>
        {field === 'mode' && (
          <ul className="muted settings-help" aria-label="Tool search modes">
            {CHOICES.mode.map(([v, text]) => (
              <li key={v}>
                <strong>{text}:</strong> {MODE_TRADE_OFFS[v]}
              </li>
            ))}
          </ul>
        )}
        {error && <p className="field-error">{error}</p>}
      </div>
    );
  };

  const number = (field: 'preloadCount' | 'loadedToolCap', title: string, min: number, max: number, hint: string) => {
    const id = `${base}-${field}`;
    const error = errors[`toolSearch.${field}`];
    return (
      <div className="settings-field">
        <label htmlFor={id}>{title}</label>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={value[field]}
          onChange={(e) => set(field, e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        />
        <small id={`${id}-hint`} className="muted">
          {hint} App default: {defaults[field]}.
        </small>
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <fieldset className="settings-group">
      <legend>Tool search</legend>
      <p className="muted settings-help">
        With many tools enabled, each model call carries only the tools it needs; the model finds the others with tool
        search.
      </p>
      <div className="settings-grid">
        {select('mode', 'Tool search mode')}
        {select('strategy', 'Search strategy')}
        {select('deferral', 'Deferral')}
        {number(
          'preloadCount',
          'Preload count',
          0,
          20,
          '0 to 20 tools picked for each message in Client mode (in the others the API loads them); 0 turns preloading off.',
        )}
        {number('loadedToolCap', 'Loaded-tool cap', 1, 200, '1 to 200 tools a thread keeps loaded.')}
      </div>
      <button type="button" className="secondary" disabled={!canReset} onClick={onReset}>
        Reset tool search to app defaults
      </button>
    </fieldset>
  );
}
