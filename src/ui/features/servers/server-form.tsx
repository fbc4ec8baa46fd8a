import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  EMPTY_SERVER_FORM,
  type FieldErrors,
  type HeaderRow,
  type ServerActions,
  type ServerForm,
  type TestOutcome,
} from '../../../stores/servers-store';
import { changesConnection, checkServerForm } from '../../../stores/server-form';
import type { ServerConfig } from '../../../domain/server-config';
import { FormField } from './form-field';
import { HeaderRows } from './header-rows';
import { ServerChoiceFields } from './server-choice-fields';

const KEEP = 'Saved; leave blank to keep it';

/**
 * The add and edit form of a server. Nothing typed is lost on an error: each problem shows next to its
 * field. `saved` is the server being edited (its secrets stay in the vault; blank secret fields keep them).
 */
export function ServerFormView({
  actions,
  initial = EMPTY_SERVER_FORM,
  saved,
  onDone,
  onChange,
}: {
  actions: ServerActions;
  initial?: ServerForm;
  saved?: ServerConfig;
  onDone?: () => void;
  /** Told every change of the fields, and of an add that succeeded: the add form's draft outlives the panel. */
  onChange?: (form: ServerForm) => void;
}) {
  const [form, setForm] = useState<ServerForm>(initial);
  // What an edit opened with: a change of how the server is reached is tried before it is saved.
  const [opened] = useState<ServerForm>(initial);
  useEffect(() => {
    onChange?.(form);
  }, [form, onChange]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [test, setTest] = useState<TestOutcome>();
  const [busy, setBusy] = useState<'save' | 'test'>();
  /** The server just added (the list above shows it): said here, where the focus still is. */
  const [added, setAdded] = useState<string>();
  /** A new server or an edit whose connection test just failed: saving it needs a second "Add anyway?" / "Save anyway?". */
  const [isConfirming, setConfirming] = useState(false);
  // "Add anyway?" takes the place of Add server, whose focus would fall to the page: it takes the focus when it comes
  // (once, not on every redraw), which also scrolls it into view under the reason, often several lines long.
  const addAnyway = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (isConfirming) addAnyway.current?.focus();
  }, [isConfirming]);
  const relaySwitch = useRef<HTMLInputElement>(null);
  const isEdit = saved !== undefined;
  const set = (change: Partial<ServerForm>) => {
    setForm((current) => ({ ...current, ...change }));
    setTest(undefined);
    setConfirming(false);
    setAdded(undefined);
  };
  const setHeaders = (headers: HeaderRow[]) => {
    // Header errors are kept by row position: once a row is removed they would sit under the wrong rows.
    if (headers.length < form.headers.length)
      setErrors((current) =>
        Object.fromEntries(Object.entries(current).filter(([field]) => !field.startsWith('headers.'))),
      );
    set({ headers });
  };
  const savedAuth = saved?.auth;
  const storedHeaders = new Set(savedAuth?.kind === 'headers' ? savedAuth.headerNames.map((n) => n.toLowerCase()) : []);

  const submit = async (event: FormEvent | undefined, isConfirmed = false) => {
    event?.preventDefault();
    if (busy !== undefined) return;
    setConfirming(false);
    if (!isConfirmed && (!isEdit || changesConnection(opened, form))) {
      // Saving needs every field right, the name too (a test alone needs only the URL): all problems show at once.
      setBusy('test');
      setTest(undefined);
      const problems = isEdit ? await actions.check(saved.id, form) : checkServerForm(form);
      if (Object.keys(problems).length > 0) {
        setBusy(undefined);
        setErrors(problems);
        return;
      }
      // A new server, or a new way to reach one, is tried first: one that does not connect is saved only when the
      // person confirms (an edit that broke a working address would leave them to remember it).
      const outcome = await actions.test(form, saved?.id);
      setBusy(undefined);
      setErrors(outcome.ok ? {} : (outcome.errors ?? {}));
      if (!outcome.ok && !outcome.needsSignIn) {
        setTest(outcome);
        if (!outcome.errors) setConfirming(true);
        return;
      }
    }
    setBusy('save');
    setTest(undefined);
    const problems = isEdit ? await actions.update(saved.id, form) : await actions.add(form);
    setBusy(undefined);
    setErrors(problems ?? {});
    if (problems) return;
    if (!isEdit) {
      setAdded(form.name.trim());
      setForm(EMPTY_SERVER_FORM);
      onChange?.(EMPTY_SERVER_FORM); // Also when the panel closed meanwhile: the draft must not bring the server back.
    }
    onDone?.();
  };

  const runTest = async (tried: ServerForm = form) => {
    if (busy !== undefined) return;
    setBusy('test');
    setTest(undefined);
    const outcome = await actions.test(tried, saved?.id);
    setBusy(undefined);
    setErrors(outcome.ok ? {} : (outcome.errors ?? {}));
    setTest(outcome);
  };

  return (
    <form
      className="server-form"
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-label={isEdit ? `Edit ${saved.name}` : 'Add a server'}
    >
      {!isEdit && <h3>Add a server</h3>}
      <div className="server-form-grid">
        <FormField label="Server name" error={errors.name}>
          {(props) => (
            <input
              {...props}
              value={form.name}
              onChange={(e) => set({ name: e.target.value })}
              maxLength={64}
              autoComplete="off"
            />
          )}
        </FormField>
        <FormField label="Server URL" error={errors.url}>
          {(props) => (
            <input
              {...props}
              value={form.url}
              onChange={(e) => set({ url: e.target.value })}
              type="url"
              placeholder="https://example.com/mcp"
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </FormField>
        <ServerChoiceFields form={form} errors={errors} set={set} />
      </div>
      {form.auth === 'bearer' && (
        <FormField label="Bearer token" error={errors.token} hint="Kept encrypted in this browser; never shown again.">
          {(props) => (
            <input
              {...props}
              value={form.token}
              onChange={(e) => set({ token: e.target.value })}
              type="password"
              placeholder={savedAuth?.kind === 'bearer' ? KEEP : ''}
              autoComplete="off"
            />
          )}
        </FormField>
      )}
      {form.auth === 'headers' && (
        <HeaderRows rows={form.headers} errors={errors} storedNames={storedHeaders} onChange={setHeaders} />
      )}
      {form.auth === 'oauth' && (
        <div className="server-form-grid">
          <FormField label="Client ID (only for a pre-registered client)" error={errors.clientId}>
            {(props) => (
              <input
                {...props}
                value={form.clientId}
                onChange={(e) => set({ clientId: e.target.value })}
                autoComplete="off"
              />
            )}
          </FormField>
          <FormField label="Client secret (optional)" error={errors.clientSecret}>
            {(props) => (
              <input
                {...props}
                value={form.clientSecret}
                onChange={(e) => set({ clientSecret: e.target.value })}
                type="password"
                placeholder={isEdit && savedAuth?.kind === 'oauth' ? KEEP : ''}
                autoComplete="off"
              />
            )}
          </FormField>
        </div>
      )}
      <label className="server-default">
        <input
          type="checkbox"
          role="switch"
          ref={relaySwitch}
          checked={form.viaRelay}
          aria-checked={form.viaRelay}
          onChange={() => set({ viaRelay: !form.viaRelay })}
        />
        <span>Route through relay</span>
        <span className="muted"> (for servers that do not answer CORS; set the Relay URL in Settings)</span>
      </label>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      {busy === 'test' && (
        <p className="test-result muted" role="status">
          Trying to connect…
        </p>
      )}
      {added && (
        <p className="test-result muted" role="status">
          Added {added}: it is in the list above.
        </p>
      )}
      {test?.text && (
        <p className={test.ok ? 'test-result test-ok' : 'test-result field-error'} role="status">
          {test.text}
        </p>
      )}
      <div className="server-form-actions">
        {/* While it works the buttons say so but stay focusable (a disabled button would drop the focus to the page);
            submit and runTest ignore a press meanwhile. */}
        {/* Blocked by CORS while a relay is set: the form is routed through it and tried again. */}
        {test && !test.ok && test.offersRelay && (
          <button
            type="button"
            aria-disabled={busy !== undefined}
            onClick={() => {
              // The button goes with the failed test: the focus goes to the switch it turned on.
              relaySwitch.current?.focus();
              set({ viaRelay: true });
              void runTest({ ...form, viaRelay: true });
            }}
          >
            Try through relay
          </button>
        )}
        {isConfirming ? (
          <button
            type="button"
            aria-disabled={busy !== undefined}
            ref={addAnyway}
            onClick={() => void submit(undefined, true)}
          >
            {isEdit ? 'Save anyway?' : 'Add anyway?'}
          </button>
        ) : (
          <button type="submit" aria-disabled={busy !== undefined}>
            {isEdit ? 'Save server' : 'Add server'}
          </button>
        )}
        <button type="button" className="secondary" aria-disabled={busy !== undefined} onClick={() => void runTest()}>
          Test connection
        </button>
        {isEdit && (
          <button type="button" className="secondary" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
