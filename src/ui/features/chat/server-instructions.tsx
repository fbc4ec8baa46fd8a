import type { ServerView } from '../../../stores/servers-store';

/**
 * The instructions of the thread's enabled servers, which go into its system prompt under each server's name; each
 * can be switched off for this thread. Shown only when a server gave some.
 */
export function ServerInstructionsSection({
  servers,
  offIds,
  onChange,
}: {
  servers: readonly ServerView[];
  offIds: readonly string[];
  onChange: (serverId: string, isOn: boolean) => void;
}) {
  const withText = servers.filter((s) => s.instructions);
  if (withText.length === 0) return null;
  return (
    <details className="thread-settings server-instructions">
      <summary>
        Server instructions ({withText.filter((s) => !offIds.includes(s.id)).length} in the system prompt)
      </summary>
      <ul aria-label="Server instructions">
        {withText.map((server) => (
          <li key={server.id}>
            <label className="switch-row">
              <input
                type="checkbox"
                role="switch"
                checked={!offIds.includes(server.id)}
                onChange={(e) => onChange(server.id, e.target.checked)}
              />
              Instructions of {server.name}
            </label>
            <pre className="result-text">{server.instructions}</pre>
          </li>
        ))}
      </ul>
    </details>
  );
}
