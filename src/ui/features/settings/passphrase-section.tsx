import { useId, useState, type FormEvent } from 'react';
import type { VaultErrors, VaultLockActions, VaultStatus } from '../../../stores/vault-lock';

/** The optional passphrase over the profile's secrets: set, lock now, idle minutes, remove. */
export function PassphraseSection({ status, actions }: { status?: VaultStatus; actions: VaultLockActions }) {
  const [passphrase, setPassphrase] = useState('');
  const [confirm, setConfirm] = useState('');
  const [minutes, setMinutes] = useState(
    String(status && status.kind !== 'no-passphrase' ? status.autoLockMinutes : 15),
  );
  const [errors, setErrors] = useState<VaultErrors>({});
  const [notice, setNotice] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const ids = {
    heading: useId(),
    passphrase: useId(),
    confirm: useId(),
    minutes: useId(),
  };

  const run = async (event: FormEvent | undefined, work: () => Promise<VaultErrors>, done: string) => {
    event?.preventDefault();
    setBusy(true);
    setNotice(undefined);
    const problems = await work();
    setBusy(false);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setPassphrase('');
    setConfirm('');
    setNotice(done);
  };
  const minutesNumber = () => (minutes.trim() === '' ? Number.NaN : Number(minutes));
  const field = (name: string) => errors[name] && <p className="field-error">{errors[name]}</p>;

  return (
    <section className="settings-card" aria-labelledby={ids.heading}>
      <h3 id={ids.heading}>Passphrase</h3>
      <p className="muted settings-help">
        Without a passphrase, secrets are encrypted with a key kept in this browser&apos;s storage: safe from exports,
        logs and other sites, not from someone who can read this computer&apos;s disk. With one, the key is stored only
        wrapped under your passphrase, and a locked profile&apos;s secrets cannot be read. A forgotten passphrase costs
        the secrets, never the threads.
      </p>
      {status?.kind === 'no-passphrase' && (
        <form
          className="settings-form"
          onSubmit={(event) =>
            void run(
              event,
              () => actions.setPassphrase(passphrase, confirm, minutesNumber()),
              'Passphrase set; every stored secret was encrypted again under it.',
            )
          }
        >
          <label htmlFor={ids.passphrase}>New passphrase</label>
          <input
            id={ids.passphrase}
            type="password"
            autoComplete="new-password"
            value={passphrase}
            onChange={(event) => setPassphrase(event.target.value)}
          />
          {field('passphrase')}
          <label htmlFor={ids.confirm}>Repeat it</label>
          <input
            id={ids.confirm}
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
          />
          {field('confirm')}
          <MinutesField id={ids.minutes} value={minutes} onChange={setMinutes} />
          {field('autoLock')}
          <button type="submit" disabled={isBusy}>
            Set passphrase
          </button>
        </form>
      )}
      {status?.kind === 'unlocked' && (
        <>
          <button
            type="button"
            className="secondary"
            disabled={isBusy}
            onClick={() => void run(undefined, actions.lock, 'Locked.')}
          >
            Lock now
          </button>
          <form
            className="settings-form"
            onSubmit={(event) => void run(event, () => actions.setAutoLock(minutesNumber()), 'Idle lock changed.')}
          >
            <MinutesField id={ids.minutes} value={minutes} onChange={setMinutes} current={status.autoLockMinutes} />
            {field('autoLock')}
            <button type="submit" className="secondary" disabled={isBusy}>
              Apply idle lock
            </button>
          </form>
          <form
            className="settings-form"
            onSubmit={(event) =>
              void run(
                event,
                () => actions.removePassphrase(passphrase),
                'Passphrase removed; secrets are encrypted with a key kept in this browser again.',
              )
            }
          >
            <label htmlFor={ids.passphrase}>Current passphrase (to remove it)</label>
            <input
              id={ids.passphrase}
              type="password"
              autoComplete="current-password"
              value={passphrase}
              onChange={(event) => setPassphrase(event.target.value)}
            />
            {field('passphrase')}
            <button type="submit" className="secondary" disabled={isBusy || passphrase === ''}>
              Remove passphrase
            </button>
          </form>
        </>
      )}
      {status?.kind === 'locked' && <p>Locked: enter your passphrase above the chat to change these settings.</p>}
      {field('form')}
      {/* What was done before a lock (a passphrase set) is not news while locked. */}
      {notice && status?.kind !== 'locked' && <p role="status">{notice}</p>}
    </section>
  );
}

function MinutesField(props: { id: string; value: string; onChange: (value: string) => void; current?: number }) {
  return (
    <>
      <label htmlFor={props.id}>Lock after idle minutes (0: never)</label>
      <input
        id={props.id}
        inputMode="numeric"
        value={props.value}
        placeholder={props.current === undefined ? undefined : String(props.current)}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.current !== undefined && (
        <p className="muted">Now: {props.current === 0 ? 'never' : `${props.current} min`}</p>
      )}
    </>
  );
}
