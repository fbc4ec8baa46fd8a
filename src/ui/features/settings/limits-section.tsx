import { useCallback, useEffect, useId, useState } from 'react';
import type { UsageLimits } from '../../../domain/usage-limits';
import type { SettingsActions } from '../../../stores/settings-actions';
import { LIMIT_FIELDS, type LimitsView } from '../../../stores/usage-limits-actions';

type LimitTexts = Record<keyof UsageLimits, string>;
const number = (n: number) => n.toLocaleString('en-US');

/** Spending limits on the person's own key: servers per thread, model calls per hour, tokens per day. */
export function LimitsSection({ actions }: { actions: SettingsActions }) {
  const id = useId();
  const [view, setView] = useState<LimitsView>();
  const [texts, setTexts] = useState<LimitTexts>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string>();
  const reload = useCallback(
    () =>
      actions.limits().then(
        (next) => {
          setView(next);
          setTexts({ ...next.own });
        },
        (error: unknown) => setStatus(`The limits could not be read: ${String(error)}`),
      ),
    [actions],
  );
  useEffect(() => void reload(), [reload]);
  const apply = async () => {
    if (!texts) return;
    setStatus(undefined);
    const problems = await actions.saveLimits(texts);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    await reload();
    setStatus('Limits applied; they count from the next model call.');
  };
  return (
    <section className="settings-card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Limits</h3>
      <p className="muted">
        Caps on what a turn may spend with your key, counted over every thread of this profile; the spend per thread is
        each thread&apos;s default (its own settings can change it). Blank: the app&apos;s default; 0: no limit.
      </p>
      {texts &&
        LIMIT_FIELDS.map(([key, label]) => {
          const appDefault = view?.appDefaults[key];
          return (
            <div className="form-field" key={key}>
              <label htmlFor={`${id}-${key}`}>{label}</label>
              <input
                id={`${id}-${key}`}
                inputMode={key === 'maxThreadCostUsd' ? 'decimal' : 'numeric'}
                value={texts[key]}
                placeholder={appDefault === undefined ? 'No limit' : `App default: ${number(appDefault)}`}
                aria-invalid={errors[key] ? true : undefined}
                aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
                onChange={(e) => setTexts({ ...texts, [key]: e.target.value })}
              />
              {errors[key] && (
                <span id={`${id}-${key}-error`} className="field-error">
                  {errors[key]}
                </span>
              )}
            </div>
          );
        })}
      {view && (
        <p className="muted" aria-label="Usage counted for the limits">
          Used: {number(view.usage.callsLastHour)} model call{view.usage.callsLastHour === 1 ? '' : 's'} in the last
          hour; {number(view.usage.tokensToday)} tokens today.
        </p>
      )}
      <button type="button" onClick={() => void apply()} disabled={!texts}>
        Apply limits
      </button>
      {errors.form && <p role="alert">{errors.form}</p>}
      {status && <p role="status">{status}</p>}
    </section>
  );
}
