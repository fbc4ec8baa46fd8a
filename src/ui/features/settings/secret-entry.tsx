import { assertNever } from '../../../domain/errors';
import { useId, useState, type FormEvent } from 'react';
import type { NeedsSecret, SecretOutcome } from '../../../stores/config-transfer';
import type { SettingsActions } from '../../../stores/settings-actions';

/** One secret field (a bearer token or a header value) for an imported server; the value goes to the vault only. */
function SecretField({
  label,
  button,
  store,
  onStored,
}: {
  label: string;
  button: string;
  store: (value: string) => Promise<SecretOutcome>;
  onStored: () => void;
}) {
  const [value, setValue] = useState('');
  const [outcome, setOutcome] = useState<SecretOutcome>();
  const [isBusy, setBusy] = useState(false);
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await store(value);
    setBusy(false);
    setOutcome(result);
    if (result.isStored) {
      setValue('');
      onStored();
    }
  };
  // Stored and connected: nothing is left to type, only what happened (a field shown empty would say otherwise).
  if (outcome?.isConnected) return <p className="muted">{outcome.text}</p>;
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
        <button type="submit" disabled={isBusy}>
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
  // What has been stored here: the sentence above the fields says what is still needed.
  const [stored, setStored] = useState<ReadonlySet<string>>(new Set());
  const noteStored = (slot: string) => () => setStored((slots) => new Set(slots).add(slot));
  switch (need.kind) {
    case 'bearer':
      return (
        <div>
          <strong>{name}</strong> {stored.size > 0 ? 'has its bearer token.' : 'needs a bearer token.'}
          <SecretField
            label={`Bearer token for ${name}`}
            button={`Store token for ${name}`}
            store={(value) => storeSecret(need.serverId, { value })}
            onStored={noteStored('bearer')}
          />
        </div>
      );
    case 'headers':
      return (
        <div>
          <strong>{name}</strong>{' '}
          {need.headerNames.every((header) => stored.has(header))
            ? 'has its header values.'
            : 'needs its header values.'}
          {need.headerNames.map((header) => (
            <SecretField
              key={header}
              label={`${header} value for ${name}`}
              button={`Store ${header} for ${name}`}
              store={(value) => storeSecret(need.serverId, { headerName: header, value })}
              onStored={noteStored(header)}
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
