import { useId, useState } from 'react';
import type { Theme } from '../../../stores/settings';

const THEMES: readonly (readonly [Theme, string])[] = [
  ['system', 'System'],
  ['light', 'Light'],
  ['dark', 'Dark'],
];

/** Light, dark, or the system's choice; applied at once and kept in the profile. */
export function ThemeSection({
  theme,
  setTheme,
}: {
  theme: Theme;
  setTheme: (theme: Theme) => Promise<string | undefined>;
}) {
  const [error, setError] = useState<string>();
  // The choice shows at once; the profile (and so the page's theme) follows when it is saved.
  const [pending, setPending] = useState<Theme>();
  const name = useId();
  const choose = async (value: Theme) => {
    setPending(value);
    setError(await setTheme(value));
    setPending(undefined);
  };
  return (
    <section className="settings-card" aria-labelledby={`${name}-heading`}>
      <h3 id={`${name}-heading`}>Appearance</h3>
      <fieldset className="theme-choice">
        <legend>Theme</legend>
        {THEMES.map(([value, label]) => (
          <label key={value} className="radio-row">
            <input
              type="radio"
              name={name}
              value={value}
              checked={(pending ?? theme) === value}
              onChange={() => void choose(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {error && <p className="field-error">{error}</p>}
    </section>
  );
}
