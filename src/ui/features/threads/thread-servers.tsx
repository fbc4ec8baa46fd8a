import { useId } from 'react';
import type { ServerView } from '../../../stores/servers-store';
import { isToolListPending, SERVER_STATUS_LABEL, TOOLS_PENDING } from '../../components/server-status';

/** "12 tools", or "2 of 3 tools" when some are switched off (as the Servers panel counts them). */
function toolsLine(server: ServerView): string {
  if (isToolListPending(server)) return TOOLS_PENDING;
  const on = server.enabledToolCount;
  return on === server.toolCount ? `${on} tools` : `${on} of ${server.toolCount} tools`;
}

/**
 * Which servers this thread may use: one switch per server, with its tool count and, for a server switched on that is
 * not connected, its status in words (a server switched off here is not connected for this thread: that says nothing).
 */
export function ThreadServers({
  servers,
  enabledIds,
  onChange,
}: {
  servers: readonly ServerView[];
  enabledIds: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  const baseId = useId();
  if (servers.length === 0) return <p className="muted thread-servers">No MCP servers yet: add one in Servers.</p>;
  const enabled = new Set(enabledIds);
  return (
    <fieldset className="thread-servers">
      {/* With more servers than a line or two holds, the count says how many the box scrolls through. */}
      <legend>
        Servers in this thread
        {servers.length > 4 ? `: ${servers.filter((s) => enabled.has(s.id)).length} of ${servers.length} on` : ''}
      </legend>
      {servers.map((server, index) => {
        const isOn = enabled.has(server.id);
        // Why it is in error, read with the switch and shown on hover: the bar has no room for the whole reason.
        const why = isOn && server.status !== 'connected' ? server.error : undefined;
        const detailId = `${baseId}-${index}`;
        return (
          <label key={server.id} className="switch-row">
            <input
              type="checkbox"
              role="switch"
              aria-checked={isOn}
              aria-label={server.name}
              aria-describedby={detailId}
              checked={isOn}
              onChange={() => onChange(isOn ? [...enabled].filter((id) => id !== server.id) : [...enabled, server.id])}
            />
            <span>{server.name}</span>
            <span className="muted" id={detailId} title={why}>
              {isOn && server.status !== 'connected' ? `${SERVER_STATUS_LABEL[server.status]} · ` : ''}
              {toolsLine(server)}
              {why && <span className="visually-hidden">. {why}</span>}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
