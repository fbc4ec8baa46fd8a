import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ThreadSettings } from '../../../stores/thread-settings-actions';
import { ThreadCodeSetting, type ThreadCodeChoice } from './thread-code-setting';
import { MAX_PRELOAD, parseThreadPreload, parseThreadSpendCap } from '../../../stores/limit-input';

const THINKING_BUDGET = 8000;

/** The thread's own model, system prompt and extended thinking; unset ones follow Settings. */
export function ThreadSettingsForm({
  thread,
  onSave,
  listModels,
}: {
  thread: ThreadConfig;
  onSave: (settings: ThreadSettings) => Promise<string | undefined>;
  /** The endpoint's models, offered as the model field's choices (it still takes any name). */
  listModels?: () => Promise<string[]>;
}) {
  const [model, setModel] = useState(thread.model ?? '');
  // The endpoint's models, read once when the settings are first opened (not with every thread): a name not among
  // them is said before it is sent.
  const [isOpen, setOpen] = useState(false);
  const [models, setModels] = useState<readonly string[]>([]);
  useEffect(() => {
    if (!isOpen || !listModels) return;
    let isCurrent = true;
    void listModels().then((list) => isCurrent && setModels(list));
    return () => {
      isCurrent = false;
    };
  }, [isOpen, listModels]);
  const isUnlisted = model.trim() !== '' && models.length > 0 && !models.includes(model.trim());
  const [systemPrompt, setSystemPrompt] = useState(thread.systemPrompt ?? '');
  const [isThinking, setThinking] = useState(thread.thinkingBudget !== undefined);
  const [searchMode, setSearchMode] = useState<string>(thread.toolSearch?.mode ?? '');
  const [strategy, setStrategy] = useState<string>(thread.toolSearch?.strategy ?? '');
  const [preload, setPreload] = useState(thread.toolSearch?.preloadCount?.toString() ?? '');
  const [code, setCode] = useState<ThreadCodeChoice>(thread.codeExecution ?? 'profile');
  const [spendCap, setSpendCap] = useState(
    thread.maxCostUsd === null ? '0' : thread.maxCostUsd === undefined ? '' : String(thread.maxCostUsd),
  );
  const [spendCapError, setSpendCapError] = useState<string>();
  const [preloadError, setPreloadError] = useState<string>();
  // What saving said; `isAtField` when a wrong field took the focus (it is in view, its error beside it).
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string; isAtField?: boolean }>();
  // The form scrolls inside the thread menu: what saving says under Save is brought into view.
  const said = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message && !message.isAtField) said.current?.scrollIntoView({ block: 'nearest' });
  }, [message]);
  const ids = {
    model: useId(),
    models: useId(),
    modelNote: useId(),
    system: useId(),
    thinking: useId(),
    mode: useId(),
    strategy: useId(),
    preload: useId(),
    preloadHelp: useId(),
    preloadError: useId(),
    spendCap: useId(),
    spendCapHelp: useId(),
    spendCapError: useId(),
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const cap = parseThreadSpendCap(spendCap);
    const preloaded = parseThreadPreload(preload);
    setSpendCapError('error' in cap ? cap.error : undefined);
    setPreloadError('error' in preloaded ? preloaded.error : undefined);
    if ('error' in cap || 'error' in preloaded) {
      // The first wrong field takes the focus; the line under Save names them all.
      const wrong = [
        ...('error' in preloaded ? [[ids.preload, 'the tools preloaded']] : []),
        ...('error' in cap ? [[ids.spendCap, 'the spend cap']] : []),
      ];
      document.getElementById(wrong[0]![0]!)?.focus();
      const text = `Not saved: correct ${wrong.map(([, name]) => name).join(' and ')}.`;
      return setMessage({ tone: 'error', text, isAtField: true });
    }
    const error = await onSave({
      model,
      systemPrompt,
      ...(isThinking ? { thinkingBudget: thread.thinkingBudget ?? THINKING_BUDGET } : {}),
      toolSearch: {
        ...(searchMode === 'client' || searchMode === 'anthropic' || searchMode === 'server'
          ? { mode: searchMode }
          : {}),
        ...(strategy === 'bm25' || strategy === 'regex' ? { strategy } : {}),
        ...(preloaded.value === undefined ? {} : { preloadCount: preloaded.value }),
      },
      ...(code === 'profile' ? {} : { codeExecution: code }),
      ...(cap.value === undefined ? {} : { maxCostUsd: cap.value }),
    });
    setMessage(error ? { tone: 'error', text: error } : { tone: 'info', text: 'Saved for this thread.' });
  };
  return (
    <details className="thread-settings" onToggle={(event) => event.currentTarget.open && setOpen(true)}>
      <summary>Thread settings</summary>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={ids.model}>Model for this thread (empty: the default from Settings)</label>
        <input
          id={ids.model}
          value={model}
          list={ids.models}
          onChange={(e) => setModel(e.target.value)}
          autoComplete="off"
          aria-describedby={isUnlisted ? ids.modelNote : undefined}
        />
        <datalist id={ids.models}>
          {models.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        {isUnlisted && (
          <p id={ids.modelNote} className="warning">
            Not among the models this endpoint lists ({models.join(', ')}): the API may refuse it.
          </p>
        )}
        <label htmlFor={ids.system}>System prompt</label>
        <textarea id={ids.system} value={systemPrompt} rows={3} onChange={(e) => setSystemPrompt(e.target.value)} />
        <label className="switch-row" htmlFor={ids.thinking}>
          <input
            id={ids.thinking}
            type="checkbox"
            checked={isThinking}
            onChange={(e) => setThinking(e.target.checked)}
          />
          Extended thinking (shown in the answer)
        </label>
        <label htmlFor={ids.mode}>Tool search mode for this thread</label>
        <select id={ids.mode} value={searchMode} onChange={(e) => setSearchMode(e.target.value)}>
          <option value="">As in Settings</option>
          <option value="client">Client (this app searches)</option>
          <option value="anthropic">Anthropic (the API expands deferred tools)</option>
          <option value="server">Server-side search (the API&apos;s own tool search)</option>
        </select>
        <label htmlFor={ids.strategy}>Strategy of tool search in this thread</label>
        <select id={ids.strategy} value={strategy} onChange={(e) => setStrategy(e.target.value)}>
          <option value="">As in Settings</option>
          <option value="bm25">Words (BM25)</option>
          <option value="regex">Regular expression</option>
        </select>
        <label htmlFor={ids.preload}>Tools preloaded per turn (empty: as in Settings)</label>
        <input
          id={ids.preload}
          value={preload}
          inputMode="numeric"
          onChange={(e) => setPreload(e.target.value)}
          autoComplete="off"
          aria-invalid={preloadError ? true : undefined}
          aria-describedby={preloadError ? `${ids.preloadHelp} ${ids.preloadError}` : ids.preloadHelp}
        />
        <p id={ids.preloadHelp} className="muted">
          0 to {MAX_PRELOAD} tools picked for each message in Client mode (in the others the API loads them); 0 turns
          preloading off.
        </p>
        {preloadError && (
          <span id={ids.preloadError} className="field-error">
            {preloadError}
          </span>
        )}
        <ThreadCodeSetting value={code} onChange={setCode} />
        <label htmlFor={ids.spendCap}>Spend cap for this thread (USD)</label>
        <input
          id={ids.spendCap}
          value={spendCap}
          inputMode="decimal"
          autoComplete="off"
          aria-invalid={spendCapError ? true : undefined}
          aria-describedby={spendCapError ? `${ids.spendCapHelp} ${ids.spendCapError}` : ids.spendCapHelp}
          onChange={(e) => setSpendCap(e.target.value)}
        />
        <p id={ids.spendCapHelp} className="muted">
          A turn stops before a model call once this thread&apos;s calls cost this much. Empty: the default from
          Settings; 0: no cap in this thread.
        </p>
        {spendCapError && (
          <span id={ids.spendCapError} className="field-error">
            {spendCapError}
          </span>
        )}
        <button type="submit">Save thread settings</button>
        {/* Both always in the page, so a screen reader hears what is filled in; only one holds text at a time. */}
        <div ref={said}>
          <p className="field-error" role="alert">
            {message?.tone === 'error' ? message.text : ''}
          </p>
          <p className="muted" role="status">
            {message?.tone === 'info' ? message.text : ''}
          </p>
        </div>
      </form>
    </details>
  );
}
