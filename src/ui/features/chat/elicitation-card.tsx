import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { checkAnswer, chosenOf, initialValues, type FormField, type FormValue } from '../../../domain/elicitation-form';
import type { PendingElicitation, RefusedElicitation } from '../../../stores/server-requests';
import './elicitation.css';

/** Said on every form: the message is the server's own words, and may pose as anyone. */
export const ELICITATION_WARNING =
  'Only answer what you expect this server to ask. Never enter passwords or API keys here.';

/** A server's question to the person: a form (checked before it is sent) or a page to open, with decline and cancel. */
export function ElicitationCard({ request }: { request: PendingElicitation }) {
  return (
    <section className="approval elicitation" aria-label={`Request from ${request.serverName}`} tabIndex={-1}>
      <p>
        <strong>{request.serverName}</strong>
        {request.serverHost ? (
          <>
            {' '}
            (<code className="server-host">{request.serverHost}</code>)
          </>
        ) : null}{' '}
        asks: <span className="elicitation-message">{request.message}</span>
      </p>
      <p className="muted elicitation-warning">{ELICITATION_WARNING}</p>
      {request.fields ? <ElicitationForm request={request} fields={request.fields} /> : <OpenPage request={request} />}
    </section>
  );
}

function OpenPage({ request }: { request: PendingElicitation }) {
  const open = () => {
    window.open(request.url, '_blank', 'noopener,noreferrer');
    request.answer({ action: 'accept' });
  };
  return (
    <>
      <p>
        It wants you to open a page on <code className="origin">{request.origin}</code>
      </p>
      <p className="muted elicitation-url">{request.url}</p>
      <div className="approval-actions">
        <button type="button" onClick={open}>
          Open {request.origin}
        </button>
        <button type="button" className="secondary" onClick={() => request.answer({ action: 'decline' })}>
          Decline
        </button>
        <button type="button" className="secondary" onClick={() => request.answer({ action: 'cancel' })}>
          Cancel
        </button>
      </div>
    </>
  );
}

function ElicitationForm({ request, fields }: { request: PendingElicitation; fields: readonly FormField[] }) {
  const [values, setValues] = useState<Record<string, FormValue>>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Counts refused Accepts: each one takes the person to the first field to fix, once the errors are on screen.
  const [refusals, setRefusals] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (refusals > 0) focusFirstInvalid(formRef.current);
  }, [refusals]);
  const set = (name: string, value: FormValue) => setValues({ ...values, [name]: value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAnswer(fields, values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setRefusals((n) => n + 1);
      return;
    }
    request.answer({ action: 'accept', content: checked.content });
  };
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="elicitation-form">
      {fields.map((field) => (
        <Field key={field.name} field={field} value={values[field.name]} error={errors[field.name]} onChange={set} />
      ))}
      {Object.keys(errors).length > 0 && (
        <p className="field-error" role="alert">
          Some answers need a change before they are sent.
        </p>
      )}
      <div className="approval-actions">
        <button type="submit">Accept</button>
        <button type="button" className="secondary" onClick={() => request.answer({ action: 'decline' })}>
          Decline
        </button>
        <button type="button" className="secondary" onClick={() => request.answer({ action: 'cancel' })}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Focuses the form's first field marked invalid (a choice group: its first box) and brings it and its error into view. */
function focusFirstInvalid(form: HTMLFormElement | null): void {
  const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!invalid) return;
  const target = invalid.matches('fieldset') ? (invalid.querySelector<HTMLElement>('input') ?? invalid) : invalid;
  target.focus({ preventScroll: true });
  (invalid.closest('.elicitation-field') ?? invalid).scrollIntoView({ block: 'center' });
}

const INPUT_TYPE = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

function Field({
  field,
  value,
  error,
  onChange,
}: {
  field: FormField;
  value: FormValue | undefined;
  error: string | undefined;
  onChange: (name: string, value: FormValue) => void;
}) {
  const id = useId();
  const label = `${field.title}${field.isRequired ? ' (required)' : ''}`;
  const described = error ? `${id}-error` : field.description ? `${id}-help` : undefined;
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described };
  const text = typeof value === 'string' ? value : '';
  let input;
  if (field.kind === 'boolean')
    input = (
      <label className="switch-row" htmlFor={id}>
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(field.name, e.target.checked)}
        />
        {label}
      </label>
    );
  else if (field.kind === 'choice')
    input = (
      <select {...common} value={text} onChange={(e) => onChange(field.name, e.target.value)}>
        <option value="">(none)</option>
        {field.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  else if (field.kind === 'multi-choice') {
    const chosen = chosenOf(value);
    input = (
      <fieldset {...common} aria-label={label}>
        {field.options.map((o) => (
          <label key={o.value} className="switch-row">
            <input
              type="checkbox"
              checked={chosen.includes(o.value)}
              onChange={(e) =>
                onChange(field.name, e.target.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value))
              }
            />
            {o.label}
          </label>
        ))}
      </fieldset>
    );
  } else
    input = (
      <input
        {...common}
        type={field.kind === 'number' ? 'text' : field.format ? INPUT_TYPE[field.format] : 'text'}
        inputMode={field.kind === 'number' ? 'decimal' : undefined}
        value={text}
        onChange={(e) => onChange(field.name, e.target.value)}
      />
    );
  return (
    <div className="elicitation-field">
      {field.kind !== 'boolean' && field.kind !== 'multi-choice' && <label htmlFor={id}>{label}</label>}
      {field.kind === 'multi-choice' && <span className="field-label">{label}</span>}
      {input}
      {field.description && !error && (
        <p id={`${id}-help`} className="muted">
          {field.description}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A request declined without asking, with the reason, until the person dismisses it. */
export function RefusedElicitationNote({ refused, onDismiss }: { refused: RefusedElicitation; onDismiss: () => void }) {
  return (
    <p className="muted note elicitation-refused" role="status">
      {refused.serverName} asked for input this app cannot show, so it was declined: {refused.reason}.{' '}
      <button type="button" className="secondary small" onClick={onDismiss}>
        Dismiss
      </button>
    </p>
  );
}
