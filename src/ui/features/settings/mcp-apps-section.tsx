import { useId, useState } from 'react';

/** MCP Apps on or off (issue #21): applied at once and kept in the profile; off, tool results show as plain results. */
export function McpAppsSection({
  isOn,
  setOn,
}: {
  isOn: boolean;
  setOn: (isOn: boolean) => Promise<string | undefined>;
}) {
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState<boolean>();
  const id = useId();
  const choose = async (value: boolean) => {
    setPending(value);
    setError(await setOn(value));
    setPending(undefined);
  };
  return (
    <section className="settings-card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>MCP Apps</h3>
      <label className="radio-row">
        <input type="checkbox" checked={pending ?? isOn} onChange={(event) => void choose(event.target.checked)} />
        Show interactive apps in tool results
      </label>
      <p className="muted">
        A server’s tool may come with an app that shows its result. Apps run in a sandbox that cannot reach this page,
        its storage or your keys; their tool calls ask for your approval like any other.
      </p>
      {error && <p className="field-error">{error}</p>}
    </section>
  );
}
