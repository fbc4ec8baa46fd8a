import { useEffect, useId, useState, type FormEvent } from 'react';
import type { SettingsInput, SettingsView } from '../../../stores/settings';

export interface SettingsPanelProps {
  readonly load: () => Promise<SettingsView>;
  readonly save: (input: SettingsInput) => Promise<Record<string, string>>;
  /** The models to offer: the API's list when the key works, else a default list. */
  readonly models: () => Promise<string[]>;
  readonly onSaved: () => void;
}

/** API key (kept in the encrypted vault, never shown again), base URL and default model. */
export function SettingsPanel({ load, save, models, onSaved }: SettingsPanelProps) {
  const [view, setView] = useState<SettingsView>();
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [modelList, setModelList] = useState<readonly string[]>([]);
  const ids = { key: useId(), url: useId(), model: useId() };

  useEffect(() => {
    void models().then(setModelList);
  }, [models, view?.hasApiKey]);

  useEffect(() => {
    void load().then((loaded) => {
      setView(loaded);
      setBaseUrl(loaded.baseUrl);
      setModel(loaded.model);
    });
  }, [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const problems = await save({ apiKey, baseUrl, model });
    setErrors(problems);
    if (Object.keys(problems).length === 0) {
      setApiKey('');
      setView(await load());
      setSaved(true);
      onSaved();
    }
  };

  if (!view) return <p role="status">Loading settings…</p>;
  const choices = modelList.includes(model) ? modelList : [model, ...modelList];
  return (
    <form className="settings" noValidate onSubmit={(e) => void submit(e)}>
      <h2>Settings</h2>
      {!view.hasApiKey && <p className="notice-inline">Add your Anthropic API key to start chatting. It is stored encrypted in this browser only.</p>}
      <label htmlFor={ids.key}>API key</label>
      <input
        id={ids.key}
        type="password"
        autoComplete="off"
        value={apiKey}
        placeholder={view.hasApiKey ? '•••••••• (saved; type to replace)' : 'sk-ant-…'}
        onChange={(e) => setApiKey(e.target.value)}
        aria-invalid={errors.apiKey ? true : undefined}
      />
      {errors.apiKey && <p className="field-error">{errors.apiKey}</p>}
      <label htmlFor={ids.url}>Base URL</label>
      <input id={ids.url} type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} aria-invalid={errors.baseUrl ? true : undefined} />
      {errors.baseUrl && <p className="field-error">{errors.baseUrl}</p>}
      <label htmlFor={ids.model}>Model</label>
      <select id={ids.model} value={model} onChange={(e) => setModel(e.target.value)}>
        {choices.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
      {errors.model && <p className="field-error">{errors.model}</p>}
      {errors.form && <p className="field-error">{errors.form}</p>}
      <button type="submit">Save</button>
      {saved && <p role="status" className="muted">Saved.</p>}
    </form>
  );
}
