import { useId } from 'react';
import type { FieldErrors, HeaderRow } from '../../../stores/servers-store';

/** The custom header rows: a name and a secret value each, with their errors beside them. */
export function HeaderRows({
  rows,
  errors,
  storedNames,
  onChange,
}: {
  rows: readonly HeaderRow[];
  errors: FieldErrors;
  storedNames: ReadonlySet<string>;
  onChange: (rows: HeaderRow[]) => void;
}) {
  const errorId = useId();
  const set = (index: number, change: Partial<HeaderRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset className="header-rows" aria-describedby={errors.headers ? errorId : undefined}>
      <legend>Custom headers</legend>
      <p className="muted field-hint">
        Sent with every request to this server. Values are kept encrypted in this browser and never shown again.
      </p>
      {rows.map((row, index) => {
        const n = index + 1;
        const nameError = errors[`headers.${index}.name`];
        const valueError = errors[`headers.${index}.value`];
        const isStored = storedNames.has(row.name.trim().toLowerCase());
        return (
          <div className="header-row" key={index}>
            <label className="header-cell">
              <span className="header-cell-label">Name</span>
              <input
                value={row.name}
                onChange={(e) => set(index, { name: e.target.value })}
                aria-label={`Header ${n} name`}
                aria-invalid={nameError ? true : undefined}
                placeholder="X-Api-Key"
                autoComplete="off"
                spellCheck={false}
              />
              {nameError && <span className="field-error">{nameError}</span>}
            </label>
            <label className="header-cell">
              <span className="header-cell-label">Value</span>
              <input
                value={row.value}
                onChange={(e) => set(index, { value: e.target.value })}
                aria-label={`Header ${n} value`}
                aria-invalid={valueError ? true : undefined}
                type="password"
                placeholder={isStored ? 'Saved; leave blank to keep it' : ''}
                autoComplete="off"
              />
              {valueError && <span className="field-error">{valueError}</span>}
            </label>
            <button
              type="button"
              className="secondary header-remove"
              aria-label={`Remove header ${n}`}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              ✕
            </button>
          </div>
        );
      })}
      {errors.headers && (
        <p id={errorId} className="field-error">
          {errors.headers}
        </p>
      )}
      <button
        type="button"
        className="secondary header-add"
        onClick={() => onChange([...rows, { name: '', value: '' }])}
      >
        Add header
      </button>
    </fieldset>
  );
}
