import { useId, useState, type FormEvent } from 'react';
import type { ServerActions } from '../../../stores/servers-store';

type AuthChoice = 'none' | 'bearer' | 'oauth';

/** The form to add a server by URL; errors are shown next to the form, nothing is lost on failure. */
export function AddServerForm({ actions }: { actions: ServerActions }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [auth, setAuth] = useState<AuthChoice>('none');
  const [token, setToken] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const ids = { name: useId(), url: useId(), auth: useId(), token: useId(), clientId: useId(), clientSecret: useId(), error: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const problem = await actions.add({ name: name.trim(), url: url.trim(), auth, ...(auth === 'bearer' ? { token } : {}), ...(auth === 'oauth' ? { clientId, clientSecret } : {}) });
    setBusy(false);
    if (problem) setError(problem);
    else {
      setName('');
      setUrl('');
      setToken('');
      setClientId('');
      setClientSecret('');
    }
  };

  return (
    <form className="add-server" noValidate onSubmit={(e) => void submit(e)} aria-describedby={error ? ids.error : undefined}>
      <h3>Add a server</h3>
      <label htmlFor={ids.name}>Server name</label>
      <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} required maxLength={64} autoComplete="off" />
      <label htmlFor={ids.url}>Server URL</label>
      <input id={ids.url} value={url} onChange={(e) => setUrl(e.target.value)} required type="url" placeholder="https://example.com/mcp" autoComplete="off" />
      <label htmlFor={ids.auth}>Authentication</label>
      <select id={ids.auth} value={auth} onChange={(e) => setAuth(e.target.value as AuthChoice)}>
        <option value="none">None</option>
        <option value="bearer">Bearer token</option>
        <option value="oauth">OAuth (sign in)</option>
      </select>
      {auth === 'bearer' && (
        <>
          <label htmlFor={ids.token}>Bearer token</label>
          <input id={ids.token} value={token} onChange={(e) => setToken(e.target.value)} type="password" autoComplete="off" />
        </>
      )}
      {auth === 'oauth' && (
        <>
          <label htmlFor={ids.clientId}>Client ID (only for a pre-registered client)</label>
          <input id={ids.clientId} value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" />
          <label htmlFor={ids.clientSecret}>Client secret (optional)</label>
          <input id={ids.clientSecret} value={clientSecret} onChange={(e) => setClientSecret(e.target.value)} type="password" autoComplete="off" />
        </>
      )}
      {error && (
        <p id={ids.error} className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={isBusy}>
        Add server
      </button>
    </form>
  );
}
