import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { ProfileActions, ProfileChange, ProfileSummary } from '../../../stores/profile-actions';

/** The profiles of this browser: create, switch (the page reloads into the other one), delete with confirmation. */
export function ProfilesSection({ actions }: { actions: ProfileActions }) {
  const [profiles, setProfiles] = useState<readonly ProfileSummary[]>();
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const ids = { heading: useId(), name: useId(), error: useId() };

  const refresh = useCallback(async () => setProfiles(await actions.list()), [actions]);
  useEffect(() => {
    void actions.list().then(setProfiles);
    // A profile added or deleted in another tab shows here too.
    return actions.follow(() => void actions.list().then(setProfiles));
  }, [actions]);

  const follow = async (change: ProfileChange) => {
    if (change.reload) return window.location.reload();
    setBusy(false);
    setErrors(change.error ? { form: change.error } : {});
    await refresh();
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(undefined);
    const problems = await actions.create(name);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setStatus(`Profile "${name.trim()}" created. Switch to it to use it.`);
    setName('');
    await refresh();
  };

  const remove = async (profile: ProfileSummary) => {
    const warning = profile.isActive ? ' This is the open profile: the app reloads into another one.' : '';
    if (
      !window.confirm(
        `Delete the profile "${profile.name}" with its servers, threads and stored credentials? This cannot be undone.${warning}`,
      )
    )
      return;
    setBusy(true);
    setStatus(undefined);
    const change = await actions.remove(profile.id);
    await follow(change);
    if (!change.error && !change.reload) setStatus(`Profile "${profile.name}" deleted.`);
  };

  const switchTo = async (profile: ProfileSummary) => {
    setBusy(true);
    await follow(await actions.switchTo(profile.id));
  };

  const isLast = (profiles?.length ?? 0) <= 1;
  return (
    <section className="settings-card" aria-labelledby={ids.heading}>
      <h3 id={ids.heading}>Profiles</h3>
      <p className="muted settings-help">
        Each person sharing this browser can have a profile with their own key, servers and threads.
      </p>
      {!profiles ? (
        <p role="status">Loading profiles…</p>
      ) : (
        <ul className="profile-list" aria-label="Profiles">
          {profiles.map((profile) => (
            <li key={profile.id} aria-label={profile.name} className={profile.isActive ? 'active' : undefined}>
              <span className="profile-name">{profile.name}</span>
              {profile.isActive ? (
                <span className="profile-current">In use</span>
              ) : (
                <button
                  type="button"
                  className="secondary small"
                  disabled={isBusy}
                  onClick={() => void switchTo(profile)}
                  aria-label={`Switch to ${profile.name}`}
                >
                  Switch
                </button>
              )}
              <button
                type="button"
                className="danger small"
                disabled={isBusy || isLast}
                title={isLast ? 'The last profile cannot be deleted' : undefined}
                onClick={() => void remove(profile)}
                aria-label={`Delete profile ${profile.name}`}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <form className="inline-form" noValidate onSubmit={(e) => void create(e)}>
        <label htmlFor={ids.name}>New profile name</label>
        <div className="inline-row">
          <input
            id={ids.name}
            value={name}
            maxLength={64}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? ids.error : undefined}
          />
          <button type="submit">Create profile</button>
        </div>
        {errors.name && (
          <p id={ids.error} className="field-error">
            {errors.name}
          </p>
        )}
      </form>
      {status && (
        <p role="status" className="muted">
          {status}
        </p>
      )}
    </section>
  );
}
