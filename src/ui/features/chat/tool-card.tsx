import { useContext, useMemo } from 'react';
import type { ContentBlock } from '../../../domain/message';
import type { ToolCallTrace } from '../../../domain/trace';
import { JsonView } from '../../components/json-view';
import { SentNote } from './sent-note';
import { ToolProgressLine } from './tool-progress';
import { ToolResultMedia, ToolResultView, hasResultMedia } from './tool-result-view';
import { McpAppsContext } from './mcp-app/apps-context';
import { AppView } from './mcp-app/app-view';
import { approvalLabel } from './approval-label';
import { formatDuration, splitToolName } from './format';
import { ServerNamesContext } from './server-names-context';
import { AwaitingElsewhereContext } from './awaiting-elsewhere-context';

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>;
type ToolResult = Extract<ContentBlock, { type: 'tool_result' }>;

/** Where a call stands, as its card says it. */
export type ToolCallState =
  'waiting' | 'waiting-elsewhere' | 'running' | 'not-run' | 'denied' | 'stopped' | 'error' | 'done';

const STATE_LABEL: Record<ToolCallState, string> = {
  waiting: 'waiting for your approval',
  'waiting-elsewhere': 'waiting for approval in another tab',
  running: 'running…',
  'not-run': 'not run',
  denied: 'denied',
  stopped: 'stopped',
  error: 'failed',
  done: 'done',
};

/**
 * The state of a call from its result and trace, whether the person is being asked about it (here, or in the tab whose
 * turn it is), and whether a turn runs (in this tab or another). A call's trace is written when it ends: one that ended
 * while others of its batch still run has no result yet.
 */
export function toolCallState(
  result: ToolResult | undefined,
  trace: ToolCallTrace | undefined,
  isAwaitingApproval: boolean,
  isTurnRunning: boolean,
  isAwaitingElsewhere = false,
): ToolCallState {
  // Asked about now wins: a call stored with its trace but not its result (a reload between the two writes) is asked
  // about, and run, again.
  if (isAwaitingApproval) return 'waiting';
  if (isAwaitingElsewhere) return 'waiting-elsewhere';
  if (!result && !trace) return isTurnRunning ? 'running' : 'not-run';
  if (trace?.approval?.decision === 'deny') return 'denied';
  // Stop cancelled it: the person's own choice, not a failure of the tool.
  if (trace?.isStopped) return 'stopped';
  return (result?.is_error ?? trace?.isError) ? 'error' : 'done';
}

/** A tool call as a collapsible card: server, tool, arguments, result (text and images), error, time, approval. */
export function ToolCard({
  use,
  result,
  trace,
  isAwaitingApproval = false,
  isTurnRunning = false,
}: {
  use: ToolUse;
  result?: ToolResult | undefined;
  trace?: ToolCallTrace | undefined;
  isAwaitingApproval?: boolean;
  isTurnRunning?: boolean;
}) {
  const serverNames = useContext(ServerNamesContext);
  const [prefix, apiName] = splitToolName(use.name);
  const tool = trace?.toolName ?? apiName;
  const serverId = trace?.serverId ?? prefix;
  const server = serverId && (serverNames.get(serverId) ?? serverId);
  const isAwaitingElsewhere = useContext(AwaitingElsewhereContext).has(use.id);
  const state = toolCallState(result, trace, isAwaitingApproval, isTurnRunning, isAwaitingElsewhere);
  // A denial is the person's own choice, not a failure: its time and "denied" again would say nothing more.
  const isDenied = state === 'denied';
  const app = useToolApp(use.name, Boolean(result && trace?.shown && !isDenied), trace?.appUri);
  // A finished call's images and audio show under the summary; the card's details stay folded.
  const media = state === 'done' && trace?.shown && hasResultMedia(trace.shown) ? trace.shown : undefined;
  return (
    <>
      <details className={`tool-card tool-${state}`}>
        <summary>
          <span className="tool-name">
            {server && <span className="muted">{server} · </span>}
            {tool}
          </span>
          <span className="tool-state muted">
            {STATE_LABEL[state]}
            {trace && !isDenied ? ` · ${formatDuration(trace.durationMs)}` : ''}
            {trace?.approval && !isDenied ? ` · ${approvalLabel(trace.approval)}` : ''}
          </span>
        </summary>
        <h3>Arguments</h3>
        <JsonView className="arguments" value={use.input} />
        {trace?.shown && !isDenied && (
          <>
            <h3>{state === 'stopped' ? 'Stopped' : state === 'error' ? 'Error' : 'Result'}</h3>
            <ToolResultView
              shown={trace.shown}
              serverId={trace.serverId}
              tool={tool}
              withoutMedia={media !== undefined}
            />
            {trace.sent && <SentNote sent={trace.sent} />}
          </>
        )}
        {result && (!trace?.shown || isDenied) && (
          <>
            <h3>{isDenied ? 'Not run' : state === 'stopped' ? 'Stopped' : result.is_error ? 'Error' : 'Result'}</h3>
            {result.content.map((item, i) =>
              item.type === 'text' ? (
                <pre key={i} className="result-text">
                  {item.text}
                </pre>
              ) : item.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(item.source.media_type) ? (
                <img
                  key={i}
                  className="result-image"
                  alt={`Image returned by ${tool}`}
                  src={`data:${item.source.media_type};base64,${item.source.data}`}
                />
              ) : (
                <p key={i} className="muted">
                  [{item.type === 'tool_reference' ? `tool ${item.tool_name}` : item.type}]
                </p>
              ),
            )}
          </>
        )}
      </details>
      {media && <ToolResultMedia shown={media} tool={tool} />}
      {state === 'running' && <ToolProgressLine toolUseId={use.id} />}
      {app && trace?.shown && (
        <AppView
          app={app}
          toolUseId={use.id}
          tool={tool}
          input={isRecord(use.input) ? use.input : {}}
          shown={trace.shown}
          isError={Boolean(result?.is_error)}
        />
      )}
    </>
  );
}

/** The MCP App the call's tool declared when it ran (issue #21), when apps are on and the call has a result to show in it. */
function useToolApp(modelName: string, hasResult: boolean, appUri: string | undefined) {
  const apps = useContext(McpAppsContext);
  const found = hasResult ? apps?.appOf(modelName, appUri) : undefined;
  const key = found ? JSON.stringify([found.serverId, found.serverName, found.origin, found.uri]) : undefined;
  return useMemo(() => {
    if (!key) return undefined;
    const [serverId, serverName, origin, uri] = JSON.parse(key) as [string, string, string, string];
    return { serverId, serverName, origin, uri };
  }, [key]);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
