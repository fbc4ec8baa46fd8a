import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SettingsView, ToolSearchInput } from '../../../stores/settings';
import type { SettingsActions } from '../../../stores/settings-actions';
import { useFocusRequest } from '../../hooks/use-focus-request';
import { ToolSearchFields, toolSearchInput } from './tool-search-fields';

export interface ModelSettingsFormProps {
  readonly actions: Pick<SettingsActions, 'load' | 'save' | 'models' | 'resetToolSearch' | 'testConnection'>;
  readonly onSaved: () => void;
  /** Changes when the stored settings changed elsewhere (an import, another tab): the form shows them again. */
  readonly revision?: string | number;
  /** The vault is locked: the key cannot be replaced until it is unlocked (the other settings can be saved). */
  readonly isLocked?: boolean;
  /** What was typed and not saved when the panel last closed, and where to keep what is typed now (none once saved). */
  readonly draft?: {
    readonly read: () => SettingsDraft | undefined;
    readonly keep: (draft: SettingsDraft | undefined) => void;
  };
  /** Raised each time the key field is wanted (Send pressed with no key saved): it is brought into view and focused. */
  readonly keyFocusRequest?: number;
}

/** The form's fields as typed, kept while Settings is closed (in memory only). */
export interface SettingsDraft {
  /** The stored settings they were typed over: once those change (an import, another tab), they are shown instead. */
  readonly over: string;
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly toolSearch: ToolSearchInput;
  readonly code: string;
}

/** API key (kept in the encrypted vault, never shown again), base URL, default model and tool search: one Save. */
export function ModelSettingsForm({
  actions,
  onSaved,
  revision = 0,
  isLocked = false,
  draft,
  keyFocusRequest = 0,
}: ModelSettingsFormProps) {
  const { load, save, models, resetToolSearch, testConnection } = actions;
  // What was typed before the panel last closed: shown over the stored settings it was typed over, once they load.
  const typed = useRef(draft?.read());
  const [view, setView] = useState<SettingsView>();
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [toolSearch, setToolSearch] = useState<ToolSearchInput>();
  const [code, setCode] = useState('local');
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A field's error goes once the person changes that field (the form's summary with the last of them).
  const edited = (field: string) =>
    setErrors((current) =>
      field in current ? Object.fromEntries(Object.entries(current).filter(([k]) => k !== field)) : current,
    );
  /** A field's change handler: the new value kept, and the field's old error dropped. */
  const editing =
    (field: string, set: (value: string) => void) => (event: { readonly target: { readonly value: string } }) => {
      set(event.target.value);
      edited(field);
    };
  const [status, setStatus] = useState<string>();
  const [modelList, setModelList] = useState<readonly string[]>([]);
  const [test, setTest] = useState<
    { readonly text: string; readonly ok: boolean; readonly apiKey: string; readonly baseUrl: string } | 'testing'
  >();
  /** Saved with the very key and base URL a Test had just refused: the Save says so, with the reason. */
  const [savedDespite, setSavedDespite] = useState<string>();
  // Folded on first run, unfolded once a key is stored; then as the person leaves it (a Save never unfolds it).
  const [isAdvancedOpen, setAdvancedOpen] = useState<boolean>();
  const [isFirstSave, setFirstSave] = useState(false);
  const ids = { key: useId(), url: useId(), model: useId(), code: useId(), codeHelp: useId() };

  // The endpoint's models for the stored key and base URL: listed again whenever they are loaded (a Save, an import).
  // A Test's list (of the typed key and base URL) is not overwritten by one of the stored settings still on its way.
  const listings = useRef(0);
  useEffect(() => {
    if (!view) return;
    const listing = ++listings.current;
    void models().then((list) => listing === listings.current && setModelList(list));
  }, [models, view]);

  const show = useCallback((loaded: SettingsView) => {
    const draft = typed.current;
    const kept = draft && draft.over === JSON.stringify(loaded) ? draft : undefined;
    typed.current = kept; // Kept while it applies: the stored settings may load again (an effect run twice).
    setView(loaded);
    setAdvancedOpen((open) => open ?? loaded.hasApiKey);
    if (kept) setApiKey(kept.apiKey);
    setBaseUrl(kept?.baseUrl ?? loaded.baseUrl);
    setModel(kept?.model ?? loaded.model);
    setToolSearch(kept?.toolSearch ?? toolSearchInput(loaded.toolSearch));
    setCode(kept?.code ?? loaded.codeExecution);
  }, []);

  // Kept as typed, so that opening Servers (or closing Settings) loses nothing; forgotten when it matches what is stored.
  useEffect(() => {
    if (!draft || !view || !toolSearch) return;
    const isChanged =
      apiKey !== '' ||
      baseUrl !== view.baseUrl ||
      model !== view.model ||
      code !== view.codeExecution ||
      JSON.stringify(toolSearch) !== JSON.stringify(toolSearchInput(view.toolSearch));
    const over = JSON.stringify(view);
    const next = isChanged ? { over, apiKey: isLocked ? '' : apiKey, baseUrl, model, toolSearch, code } : undefined;
    if (typed.current) typed.current = next; // A load that comes again shows what is typed now.
    draft.keep(next);
  }, [draft, view, apiKey, baseUrl, model, toolSearch, code, isLocked]);

  useEffect(() => {
    void load().then(show);
  }, [load, show, revision]);

  const keyField = useRef<HTMLInputElement>(null);
  useFocusRequest(keyField, view !== undefined && toolSearch !== undefined, keyFocusRequest);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(undefined);
    setSavedDespite(undefined);
    const refused =
      typeof test === 'object' && !test.ok && test.apiKey === apiKey && test.baseUrl === baseUrl
        ? test.text
        : undefined;
    const problems = await save({ apiKey, baseUrl, model, codeExecution: code, ...(toolSearch ? { toolSearch } : {}) });
    setErrors(problems);
    if (Object.keys(problems).length === 0) {
      typed.current = undefined; // Saved: what was typed is what is stored now.
      setFirstSave(view?.hasApiKey === false);
      setApiKey('');
      // The Test result ("… Save to keep these settings.") is answered by the Save: it goes.
      setTest(undefined);
      show(await load());
      setStatus('Saved.');
      setSavedDespite(refused);
      onSaved();
    }
  };

  const runTest = async () => {
    setTest('testing');
    const tested = { apiKey, baseUrl };
    const outcome = await testConnection(tested);
    if (!outcome.ok) return setTest({ text: outcome.message, ok: false, ...tested });
    listings.current++;
    setModelList(outcome.models);
    // The model list follows the endpoint: a model it does not offer is replaced by the first one it does.
    const switched = outcome.models.includes(model) ? undefined : outcome.models[0];
    if (switched) setModel(switched);
    const count = `${outcome.models.length} model${outcome.models.length === 1 ? '' : 's'}`;
    setTest({
      ...tested,
      ok: true,
      text: `Connected: the key works and this endpoint offers ${count}.${switched ? ` ${model} is not one of them: Model is now ${switched}.` : ''} Save to keep these settings.`,
    });
  };

  const reset = async () => {
    const problem = await resetToolSearch();
    if (problem) return setErrors({ form: problem });
    setErrors({});
    const loaded = await load();
    setView(loaded);
    setToolSearch(toolSearchInput(loaded.toolSearch));
    setStatus('Tool search follows the app defaults again.');
  };

  if (!view || !toolSearch) return <p role="status">Loading settings…</p>;
  const isUnlisted = modelList.length > 0 && !modelList.includes(model);
  const choices = isUnlisted ? [model, ...modelList] : modelList;
  return (
    <form
      className="settings settings-card"
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-labelledby={`${ids.key}-heading`}
    >
      <h3 id={`${ids.key}-heading`}>Model and tools</h3>
      {!view.hasApiKey && (
        <p className="notice-inline">
          Add your Anthropic API key to start chatting. It is stored encrypted in this browser only.
        </p>
      )}
      <label htmlFor={ids.key}>API key</label>
      <input
        ref={keyField}
        id={ids.key}
        type="password"
        autoComplete="off"
        value={apiKey}
        disabled={isLocked}
        placeholder={
          isLocked
            ? 'Locked: unlock above the chat to replace the key'
            : view.hasApiKey
              ? '•••••••• (saved; type to replace)'
              : 'sk-ant-…'
        }
        onChange={editing('apiKey', setApiKey)}
        aria-invalid={errors.apiKey ? true : undefined}
      />
      {errors.apiKey && <p className="field-error">{errors.apiKey}</p>}
      <label htmlFor={ids.url}>Base URL</label>
      <input
        id={ids.url}
        type="url"
        value={baseUrl}
        onChange={editing('baseUrl', setBaseUrl)}
        aria-invalid={errors.baseUrl ? true : undefined}
      />
      {errors.baseUrl && <p className="field-error">{errors.baseUrl}</p>}
      <div className="connection-test">
        <button type="button" className="secondary" disabled={test === 'testing'} onClick={() => void runTest()}>
          Test
        </button>
        <p className={test && test !== 'testing' && !test.ok ? 'field-error' : 'muted'} role="status">
          {test === 'testing' ? 'Testing the key and base URL…' : (test?.text ?? '')}
        </p>
      </div>
      {/* Folded on first run: a key is all it takes to start; the rest has working defaults. */}
      <details
        className="advanced-settings"
        open={isAdvancedOpen ?? view.hasApiKey}
        onToggle={(event) => setAdvancedOpen(event.currentTarget.open)}
      >
        <summary>Advanced settings</summary>
        <div className="advanced-fields">
          <label htmlFor={ids.model}>Model</label>
          <select id={ids.model} value={model} onChange={editing('model', setModel)}>
            {choices.map((m) => (
              <option key={m} value={m}>
                {m === model && isUnlisted ? `${m} (not offered by this endpoint)` : m}
              </option>
            ))}
          </select>
          {isUnlisted && (
            <p className="warning settings-help">The endpoint does not list {model}: pick one it offers.</p>
          )}
          {errors.model && <p className="field-error">{errors.model}</p>}
          <ToolSearchFields
            value={toolSearch}
            defaults={view.toolSearchDefaults}
            errors={errors}
            onChange={setToolSearch}
            canReset={
              view.hasToolSearchOverrides ||
              JSON.stringify(toolSearch) !== JSON.stringify(toolSearchInput(view.toolSearchDefaults))
            }
            onReset={() => void reset()}
          />
          {/* The label is the setting's name alone; the explanation describes it (a name that mentions
              "model" made the field answer to the Model field's name too). */}
          <label htmlFor={ids.code}>Code</label>
          <select
            id={ids.code}
            aria-describedby={ids.codeHelp}
            value={code}
            onChange={editing('codeExecution', setCode)}
          >
            <option value="local">In this page (sandbox)</option>
            <option value="anthropic">In Anthropic&apos;s container</option>
            <option value="off">Off</option>
          </select>
          <p id={ids.codeHelp} className="muted settings-help">
            The model writes code that calls a thread&apos;s tools: JavaScript in a sandbox in this page (no network, no
            storage), or Python in Anthropic&apos;s code execution container (each call still comes here for approval).
            A thread can choose otherwise in its settings.
          </p>
          {errors.codeExecution && <p className="field-error">{errors.codeExecution}</p>}
        </div>
      </details>
      {errors.form && <p className="field-error">{errors.form}</p>}
      {Object.keys(errors).length > 0 && !errors.form && (
        <p className="field-error" role="alert">
          Nothing was saved: fix the fields marked above.
        </p>
      )}
      <button type="submit">Save</button>
      {status && (
        <p role="status" className="muted">
          {status}
        </p>
      )}
      {status === 'Saved.' && savedDespite && (
        <p className="field-error" role="alert">
          Saved as asked, but the last Test of these settings failed: {savedDespite}
        </p>
      )}
      {/* What to do next only once the settings work: with a refused key, the line above says what to fix first. */}
      {status === 'Saved.' && isFirstSave && !savedDespite && (
        <p className="notice-inline">
          Next: add an MCP server under <strong>Servers</strong> for tools, or start a <strong>New thread</strong> and
          ask away.
        </p>
      )}
    </form>
  );
}
