import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SettingsActions } from '../../../stores/settings-actions';

/** "Relay URL": the CORS relay servers without CORS can be reached through (`npm run relay`); blank uses the app's. */
export function RelaySection({ actions }: { actions: SettingsActions }) {
  const [url, setUrl] = useState('');
  const [appUrl, setAppUrl] = useState<string>();
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string }>();
  const id = useId();
  // What the person did last (a save, a keystroke): a check that ends after it says nothing.
  const latest = useRef(0);
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
    const mine = ++latest.current;
    const error = await actions.saveRelay(url);
    if (mine !== latest.current) return;
    if (error) return setMessage({ tone: 'error', text: error });
    // Set as typed (a relay may be started later), then tried at once: a wrong address shows now, not at the next
    // connect of a server routed through it.
    setMessage({ tone: 'info', text: 'Relay set; checking that it answers…' });
    const check = await actions.checkRelay();
    if (mine !== latest.current) return;
    setMessage(
      check.kind === 'none'
        ? { tone: 'info', text: 'No relay in use: servers without CORS cannot be reached.' }
        : check.kind === 'answers'
          ? { tone: 'info', text: `Relay set: ${check.url} answers and serves this app.` }
          : { tone: 'error', text: `Relay set, but it does not work yet: ${check.message}` },
    );
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
            latest.current++;
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
