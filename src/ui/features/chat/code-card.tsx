import type { ContentBlock } from '../../../domain/message';
import type { CodeExecutionTrace, ToolCallTrace } from '../../../domain/trace';
import { useContext } from 'react';
import { JsonView } from '../../components/json-view';
import { formatCount, formatDuration, splitToolName } from './format';
import { ServerNamesContext } from './server-names-context';
import { AwaitingElsewhereContext } from './awaiting-elsewhere-context';

type ToolResult = Extract<ContentBlock, { type: 'tool_result' }>;

const STATUS: Record<CodeExecutionTrace['status'], string> = {
  returned: 'done',
  threw: 'failed',
  timeout: 'ended at the time limit',
  stopped: 'stopped',
  crashed: 'failed',
  refused: 'not run',
};

/**
 * A code run: an execute_code call (JavaScript in this page's sandbox) or the API's code execution (Python in
 * Anthropic's container, programmatic tool calling). The code (monospace, collapsible), the tool calls it made as
 * nested cards with status and duration, its logged lines and what it returned. Everything shown is text, inert.
 */
export function CodeCard({
  use,
  result,
  trace,
  innerCalls,
  awaitingIds,
}: {
  use: { readonly id: string; readonly input: unknown };
  result?: ToolResult;
  trace?: CodeExecutionTrace;
  innerCalls: readonly ToolCallTrace[];
  /** The code's calls that wait for the person's approval, by toolUseId (the code's time limit stands still meanwhile). */
  awaitingIds?: ReadonlySet<string>;
}) {
  const isAwaitingApproval = [...(awaitingIds ?? [])].some((id) => id.startsWith(`${use.id}:`));
  const elsewhere = useContext(AwaitingElsewhereContext);
  const isAwaitingElsewhere = [...elsewhere].some((id) => id.startsWith(`${use.id}:`));
  const code =
    typeof (use.input as { code?: unknown } | null)?.code === 'string' ? (use.input as { code: string }).code : '';
  const isAnthropic = trace?.runner === 'anthropic' || (!result && !trace && isServerRun(use));
  // The API's code execution has no tool_result of ours: its trace says how it ended.
  const state = !result
    ? trace && isAnthropic
      ? trace.status === 'returned'
        ? 'done'
        : 'error'
      : 'running'
    : result.is_error
      ? 'error'
      : 'done';
  const resultText = result?.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  return (
    <details className={`tool-card code-card tool-${state}`} open>
      <summary>
        <span className="tool-name">Code</span>
        <span className="muted">
          {isAnthropic ? " in Anthropic's container ·" : ''}{' '}
          {trace
            ? STATUS[trace.status]
            : state === 'running'
              ? isAwaitingApproval
                ? 'waiting for your approval of a call…'
                : isAwaitingElsewhere
                  ? 'waiting for approval of a call in another tab…'
                  : 'running…'
              : state === 'error'
                ? 'failed'
                : 'done'}
          {` · ${innerCalls.length} tool ${innerCalls.length === 1 ? 'call' : 'calls'}`}
          {trace ? ` · ${formatDuration(trace.durationMs)}` : ''}
          {trace && trace.savedTokens > 0
            ? ` · about ${formatCount(trace.savedTokens)} tokens kept out of the context`
            : ''}
        </span>
      </summary>
      <details className="code-source">
        <summary>
          {isAnthropic ? 'Python' : 'JavaScript'} ({lineCount(code)})
        </summary>
        <pre className="code-text">{code}</pre>
      </details>
      {innerCalls.length > 0 && (
        <ol className="inner-calls" aria-label="Tool calls made by the code">
          {innerCalls.map((call) => (
            <li key={call.toolUseId}>
              <InnerCallCard
                call={call}
                isAwaitingApproval={awaitingIds?.has(call.toolUseId) ?? false}
                isAwaitingElsewhere={elsewhere.has(call.toolUseId)}
              />
            </li>
          ))}
        </ol>
      )}
      {trace && trace.logs.length > 0 && (
        <>
          <h3>Logged lines</h3>
          <pre className="result-text code-logs">{trace.logs.join('\n')}</pre>
        </>
      )}
      {trace?.value !== undefined ? (
        <>
          <h3>Returned value</h3>
          <ReturnedValue text={trace.value} />
        </>
      ) : result && (result.is_error || !trace) ? (
        <>
          <h3>{result.is_error ? 'Error' : 'Result'}</h3>
          <pre className="result-text">{resultText}</pre>
        </>
      ) : isAnthropic && trace?.error ? (
        <>
          <h3>Error</h3>
          <pre className="result-text">{trace.error}</pre>
        </>
      ) : null}
    </details>
  );
}

/** The API's code execution names its blocks srvtoolu_…; the page's execute_code calls are toolu_…. */
const isServerRun = (use: { readonly id: string }) => use.id.startsWith('srvtoolu_');

function ReturnedValue({ text }: { text: string }) {
  const parsed = parseJson(text);
  // Cut at the output limit, the text is no longer JSON: shown as it is.
  return parsed.ok ? (
    <JsonView className="arguments" value={parsed.value} />
  ) : (
    <pre className="result-text">{text}</pre>
  );
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * One tool call the code made: its tool, status, duration, approval, arguments and a summary of its result; while it
 * has not answered, running (or waiting for the person's approval, which the code's calls ask one at a time).
 */
function InnerCallCard({
  call,
  isAwaitingApproval,
  isAwaitingElsewhere,
}: {
  call: ToolCallTrace;
  isAwaitingApproval: boolean;
  /** Asked about in the tab whose turn it is. */
  isAwaitingElsewhere: boolean;
}) {
  const serverNames = useContext(ServerNamesContext);
  const [prefix, apiName] = splitToolName(call.tool);
  const tool = call.toolName ?? apiName;
  const serverId = call.serverId ?? prefix;
  const server = serverId && (serverNames.get(serverId) ?? serverId);
  const state = call.isRunning ? 'running' : call.isStopped ? 'stopped' : call.isError ? 'error' : 'done';
  return (
    <details className={`tool-card inner-call tool-${state}`}>
      <summary>
        <span className="tool-name">
          {server && <span className="muted">{server} · </span>}
          {tool}
        </span>
        <span className="muted">
          {' '}
          {call.isRunning
            ? isAwaitingApproval
              ? 'waiting for your approval…'
              : isAwaitingElsewhere
                ? 'waiting for approval in another tab…'
                : 'running…'
            : `${call.isStopped ? 'stopped' : call.isError ? 'failed' : 'done'} · ${formatDuration(call.durationMs)}`}
          {call.approval?.decision === 'deny' ? ' · denied' : ''}
        </span>
      </summary>
      <h3>Arguments</h3>
      <JsonView className="arguments" value={call.arguments} />
      {!call.isRunning && (
        <>
          <h3>{call.isError ? 'Error' : 'Result (not sent to the model)'}</h3>
          <pre className="result-text">{call.error ?? call.resultSummary}</pre>
        </>
      )}
    </details>
  );
}

/** "1 line", "12 lines". */
function lineCount(code: string): string {
  const lines = code.split('\n').length;
  return `${lines.toLocaleString('en-US')} ${lines === 1 ? 'line' : 'lines'}`;
}
