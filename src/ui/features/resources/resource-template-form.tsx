import { useId, useState, type FormEvent } from 'react';
import type { ResourceTemplateInfo } from '../../../domain/server-resource';
import type { ResourceActions } from '../../../stores/resource-attachments';

/**
 * A resource template's arguments as a small form: each field suggests values from the server (`completion/complete`,
 * with the values already filled in as context); Attach reads the resource the filled-in URI names.
 */
export function ResourceTemplateForm({
  actions,
  serverId,
  template,
  onDone,
}: {
  actions: ResourceActions;
  serverId: string;
  template: ResourceTemplateInfo;
  onDone: () => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [suggestions, setSuggestions] = useState<Record<string, readonly string[]>>({});
  const [isBusy, setBusy] = useState(false);
  const baseId = useId();
  const suggest = (name: string, value: string, context: Record<string, string>) => {
    const others = Object.fromEntries(Object.entries(context).filter(([key, v]) => key !== name && v));
    void actions
      .complete(serverId, template.uriTemplate, { name, value }, others)
      .then((found) => setSuggestions((s) => ({ ...s, [name]: found.slice(0, 50) })));
  };
  const isComplete = template.variables.every((name) => (values[name] ?? '').trim() !== '');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isComplete) return;
    setBusy(true);
    await actions.attachTemplate(serverId, template.uriTemplate, values);
    setBusy(false);
    onDone();
  };
  const title = template.title ?? template.name;
  return (
    <form
      className="template-form"
      aria-label={`Attach ${title}`}
      onSubmit={(e) => void submit(e)}
      onKeyDown={(event) => {
        // Escape cancels the form (as the prompt form's), not the panel or menu around it.
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onDone();
      }}
    >
      <p className="template-form-title">
        <strong>{title}</strong> <span className="muted">{template.uriTemplate}</span>
      </p>
      {template.description && <p className="muted">{template.description}</p>}
      {template.variables.map((name, i) => {
        const id = `${baseId}-${i}`;
        return (
          <label key={name} htmlFor={id} className="template-field">
            {name}
            {/* Picked from `@` or "Fill in…": what is typed next goes here, not into the message. */}
            <input
              id={id}
              autoFocus={i === 0}
              list={`${id}-list`}
              value={values[name] ?? ''}
              autoComplete="off"
              onFocus={(e) => suggest(name, e.target.value, values)}
              onChange={(e) => {
                const next = { ...values, [name]: e.target.value };
                setValues(next);
                suggest(name, e.target.value, next);
              }}
            />
            <datalist id={`${id}-list`}>
              {(suggestions[name] ?? []).map((value) => (
                <option key={value} value={value} />
              ))}
            </datalist>
          </label>
        );
      })}
      <div className="template-form-actions">
        <button type="submit" disabled={!isComplete || isBusy}>
          {isBusy ? 'Reading…' : 'Attach'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
