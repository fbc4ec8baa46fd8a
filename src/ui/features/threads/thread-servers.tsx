import type { ServerView } from '../../../stores/servers-store';

/** Which servers this thread may use: one switch per server, with its status and tool count. */
export function ThreadServers({
  servers,
  enabledIds,
  onChange,
}: {
  servers: readonly ServerView[];
  enabledIds: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  if (servers.length === 0) return <p className="muted thread-servers">No MCP servers yet: add one in Servers.</p>;
  const enabled = new Set(enabledIds);
  return (
    <fieldset className="thread-servers">
      <legend>Servers in this thread</legend>
      {servers.map((server) => {
        const isOn = enabled.has(server.id);
        return (
          <label key={server.id} className="switch-row">
            <input
              type="checkbox"
              role="switch"
              aria-checked={isOn}
              aria-label={server.name}
              checked={isOn}
              onChange={() => onChange(isOn ? [...enabled].filter((id) => id !== server.id) : [...enabled, server.id])}
            />
            <span>{server.name}</span>
            <span className="muted">
              {server.status === 'connected' ? '' : `${server.status} · `}
              {server.toolCount} tools
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
