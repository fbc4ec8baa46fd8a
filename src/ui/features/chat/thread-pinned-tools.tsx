import { useId, useState } from 'react';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ToolRef } from '../../../domain/tool-catalog';
import type { Deferral } from '../../../domain/tool-search-settings';
import type { ThreadToolChoiceActions } from '../../../stores/thread-tool-choices';
import type { ServerView } from '../../../stores/servers-store';

const DEFERRALS: readonly Deferral[] = ['auto', 'always', 'never'];
const isDeferral = (value: string): value is Deferral => (DEFERRALS as readonly string[]).includes(value);

/**
 * The thread's pinned tools (offered to the model in every call of the thread, even when the others wait behind tool
 * search) and its own deferral. Each choice applies at once; only tools of the thread's enabled servers are listed.
 */
export function ThreadPinnedTools({
  thread,
  servers,
  actions,
}: {
  thread: ThreadConfig;
  servers: readonly ServerView[];
  actions: ThreadToolChoiceActions;
}) {
  const [error, setError] = useState<string>();
  const deferralId = useId();
  const enabled = servers.filter((s) => thread.enabledServerIds.includes(s.id));
  const isPinned = (ref: ToolRef) =>
    thread.pinnedTools.some((p) => p.serverId === ref.serverId && p.toolName === ref.toolName);
  const pinnedCount = enabled.reduce(
    (count, s) => count + s.tools.filter((t) => t.isEnabled && isPinned({ serverId: s.id, toolName: t.name })).length,
    0,
  );
  const apply = async (result: Promise<string | undefined>) => setError(await result);
  return (
    <details className="thread-settings pinned-tools">
      <summary>Pinned tools ({pinnedCount})</summary>
      <label htmlFor={deferralId}>Deferral in this thread</label>
      <select
        id={deferralId}
        value={thread.toolSearch?.deferral ?? ''}
        onChange={(e) =>
          void apply(actions.setThreadDeferral(thread.id, isDeferral(e.target.value) ? e.target.value : undefined))
        }
      >
        <option value="">As in Settings</option>
        <option value="auto">Auto (when the tools are many or large)</option>
        <option value="always">Always (tools wait behind tool search)</option>
        <option value="never">Never (every tool in every call)</option>
      </select>
      <p className="muted">
        A pinned tool is offered to the model in every call of this thread, even when tools are deferred.
      </p>
      {enabled.length === 0 && <p className="muted">Turn on a server for this thread to pin its tools.</p>}
      {enabled.map((server) => (
        <fieldset key={server.id}>
          <legend>{server.name}</legend>
          {server.tools.filter((t) => t.isEnabled).length === 0 && <p className="muted">No tools listed yet.</p>}
          <ul aria-label={`Tools of ${server.name} to pin`}>
            {server.tools
              .filter((t) => t.isEnabled)
              .map((tool) => {
                const ref = { serverId: server.id, toolName: tool.name };
                return (
                  <li key={tool.name}>
                    <label className="switch-row">
                      <input
                        type="checkbox"
                        aria-label={`Pin ${tool.name} (${server.name})`}
                        checked={isPinned(ref)}
                        onChange={(e) => void apply(actions.setPinnedTool(thread.id, ref, e.target.checked))}
                      />
                      {tool.name}
                    </label>
                  </li>
                );
              })}
          </ul>
        </fieldset>
      ))}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </details>
  );
}
