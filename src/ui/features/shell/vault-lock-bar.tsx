import { useId, useState, type FormEvent } from 'react';
import type { VaultLockActions } from '../../../stores/vault-lock';
import { isFocusLost } from '../../hooks/focus-lost';
import './vault-lock.css';

/**
 * Shown while the profile's secrets are locked: the passphrase field, and the way out for a forgotten one
 * (erasing the secrets only). Threads stay readable meanwhile.
 */
export function VaultLockBar({
  actions,
  takeFocus,
  focusAfterUnlock,
}: {
  actions: VaultLockActions;
  /** True once when the person has just pressed Lock: its button goes, and the bar's title takes the focus. */
  takeFocus?: () => boolean;
  /**
   * Unlocking from the bar, which goes with the focus in it: the shell gives the focus a place once it has. Told before
   * the unlock (the bar can go before it resolves), and `refused` after one that failed.
   */
  focusAfterUnlock?: { readonly ask: () => void; readonly refused: () => void };
}) {
  const [passphrase, setPassphrase] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const [isForgetting, setForgetting] = useState(false);
  const ids = { heading: useId(), field: useId(), error: useId() };

  const unlock = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    focusAfterUnlock?.ask();
    const errors = await actions.unlock(passphrase);
    setBusy(false);
    setError(errors.passphrase ?? errors.form);
    if (!errors.passphrase && !errors.form) setPassphrase('');
    else focusAfterUnlock?.refused();
  };
  const forget = async () => {
    setBusy(true);
    const errors = await actions.forgetPassphrase();
    setBusy(false);
    setForgetting(false);
    setError(errors.form);
  };

  return (
    <section className="notice notice-warning vault-lock" aria-labelledby={ids.heading}>
      {/* Also when the focus was lost: Settings' "Lock now" goes as it locks, leaving the focus on the page. */}
      <h2
        id={ids.heading}
        tabIndex={-1}
        ref={(element) => void (element && (takeFocus?.() || isFocusLost()) && element.focus())}
      >
        Locked: enter your passphrase
      </h2>
      <p>The API key and server credentials of this profile are locked. Threads stay readable.</p>
      <form className="vault-unlock" onSubmit={(event) => void unlock(event)}>
        <label htmlFor={ids.field}>Passphrase</label>
        <input
          id={ids.field}
          type="password"
          autoComplete="current-password"
          value={passphrase}
          onChange={(event) => setPassphrase(event.target.value)}
          aria-invalid={error !== undefined}
          aria-describedby={error ? ids.error : undefined}
        />
        <button type="submit" disabled={isBusy || passphrase === ''}>
          Unlock
        </button>
      </form>
      {error && (
        <p id={ids.error} className="field-error" role="alert">
          {error}
        </p>
      )}
      {isForgetting ? (
        <p className="vault-forget">
          Erase the API key and every server credential of this profile? Threads, servers and settings stay; you enter
          the key and sign in again.{' '}
          <button type="button" className="danger small" disabled={isBusy} onClick={() => void forget()}>
            Erase secrets
          </button>{' '}
          <button type="button" className="secondary small" onClick={() => setForgetting(false)}>
            Cancel
          </button>
        </p>
      ) : (
        <button type="button" className="secondary small" onClick={() => setForgetting(true)}>
          Forget passphrase and erase secrets
        </button>
      )}
    </section>
  );
}
