import { assertNever } from '../../../domain/errors';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { NeedsSecret, SecretOutcome } from '../../../stores/config-transfer';
import type { SettingsActions } from '../../../stores/settings-actions';

/** One secret field (a bearer token or a header value) for an imported server; the value goes to the vault only. */
function SecretField({
  label,
  button,
  store,
  onConnected,
  isServerConnected,
}: {
  label: string;
  button: string;
  store: (value: string) => Promise<SecretOutcome>;
  /** The secret is stored and the server connected with it. */
  onConnected: () => void;
  /** The server connected (after this field's value or another's). */
  isServerConnected: boolean;
}) {
  const [value, setValue] = useState('');
  const [outcome, setOutcome] = useState<SecretOutcome>();
  const [isBusy, setBusy] = useState(false);
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isBusy) return;
    setBusy(true);
    const result = await store(value);
    setBusy(false);
    setOutcome(result);
    if (result.isStored) setValue('');
    if (result.isConnected) onConnected();
  };
  // Stored, and the server connected (with this value or with another field's): nothing is left to type, only what
  // happened (an empty field would say otherwise). The button pressed goes: the focus moves to the sentence instead.
  const done = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (outcome?.isConnected) done.current?.focus();
  }, [outcome]);
  if (outcome?.isStored && (outcome.isConnected || isServerConnected))
    return (
      <p className="muted" tabIndex={-1} ref={done}>
        Stored; the server is connected.
      </p>
    );
  return (
    <form className="inline-form" noValidate onSubmit={(e) => void submit(e)}>
      <label htmlFor={id}>{label}</label>
      <div className="inline-row">
        <input
          id={id}
          type="password"
          autoComplete="off"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={outcome && !outcome.isStored ? true : undefined}
        />
        {/* Focusable while it works (a disabled button would drop the focus to the page); submit ignores a press. */}
        <button type="submit" aria-disabled={isBusy}>
          {button}
        </button>
      </div>
      {outcome && <p className={outcome.isConnected ? 'muted' : 'field-error'}>{outcome.text}</p>}
    </form>
  );
}

/** Asks for what an imported server needs: a token, header values, or a sign-in under Servers. */
export function SecretEntry({
  need,
  storeSecret,
}: {
  need: NeedsSecret;
  storeSecret: SettingsActions['storeServerSecret'];
}) {
  const name = need.serverName;
  // Once the server connects with what was stored here, the sentence above the fields says it has what it needs.
  const [isConnected, setConnected] = useState(false);
  const noteConnected = () => setConnected(true);
  switch (need.kind) {
    case 'bearer':
      return (
        <div>
          <strong>{name}</strong> {isConnected ? 'has its bearer token.' : 'needs a bearer token.'}
          <SecretField
            label={`Bearer token for ${name}`}
            button={`Store token for ${name}`}
            store={(value) => storeSecret(need.serverId, { value })}
            onConnected={noteConnected}
            isServerConnected={isConnected}
          />
        </div>
      );
    case 'headers':
      return (
        <div>
          <strong>{name}</strong> {isConnected ? 'has its header values.' : 'needs its header values.'}
          {need.headerNames.map((header) => (
            <SecretField
              key={header}
              label={`${header} value for ${name}`}
              button={`Store ${header} for ${name}`}
              store={(value) => storeSecret(need.serverId, { headerName: header, value })}
              onConnected={noteConnected}
              isServerConnected={isConnected}
            />
          ))}
        </div>
      );
    case 'oauth':
      return (
        <div>
          <strong>{name}</strong> needs a sign-in: open Servers and choose &ldquo;Sign in&rdquo;.
        </div>
      );
    default:
      return assertNever(need);
  }
}
