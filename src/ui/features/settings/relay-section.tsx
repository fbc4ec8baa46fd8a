import { useEffect, useId, useState, type FormEvent } from 'react';
import type { SettingsActions } from '../../../stores/settings-actions';

/** "Relay URL": the CORS relay servers without CORS can be reached through (`npm run relay`); blank uses the app's. */
export function RelaySection({ actions }: { actions: SettingsActions }) {
  const [url, setUrl] = useState('');
  const [appUrl, setAppUrl] = useState<string>();
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string }>();
  const id = useId();
  useEffect(() => {
    let isCurrent = true;
    actions.relay().then(
      (relay) => {
        if (!isCurrent) return;
        setUrl(relay.url);
        setAppUrl(relay.appUrl);
      },
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [actions]);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const error = await actions.saveRelay(url);
    setMessage(error ? { tone: 'error', text: error } : { tone: 'info', text: 'Relay set.' });
  };
  return (
    <section className="settings-card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Relay</h3>
      <form onSubmit={(e) => void save(e)} noValidate>
        <label htmlFor={`${id}-url`}>Relay URL</label>
        <input
          id={`${id}-url`}
          type="url"
          value={url}
          placeholder={appUrl ?? 'http://127.0.0.1:8787/'}
          onChange={(e) => {
            setUrl(e.target.value);
            setMessage(undefined);
          }}
          aria-invalid={message?.tone === 'error'}
          autoComplete="off"
          spellCheck={false}
        />
        <p className="muted">
          {appUrl ? `Blank uses the app's relay, ${appUrl}. ` : ''}Servers that do not answer CORS can be reached
          through it (npm run relay runs one).
        </p>
        {message && (
          <p className={message.tone === 'error' ? 'field-error' : 'muted'} role="status">
            {message.text}
          </p>
        )}
        <button type="submit">Use relay</button>
      </form>
    </section>
  );
}
