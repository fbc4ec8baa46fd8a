import { assertNever } from '../../../domain/errors';
import { formatUsd } from '../../../domain/money';
import type {
  CodeExecutionTrace,
  CompactionTrace,
  ModelCallTrace,
  ToolCallTrace,
  ToolSearchTrace,
} from '../../../domain/trace';
import type { TurnTrace } from './turns';
import { TokenCounts } from './token-total';
import { approvalLabel } from './approval-label';
import { formatCount, formatDuration, splitToolName } from './format';
import { limitCountsLine } from './limit-counts';

/** What one turn did: its model calls with token usage, tool searches with their picks, tool calls with outcome. */
export function TracePanel({
  id,
  trace,
  serverNames,
}: {
  id: string;
  trace: TurnTrace;
  serverNames: ReadonlyMap<string, string>;
}) {
  return (
    <section id={id} className="trace" aria-label="Trace of this turn">
      <ol className="trace-entries">
        {trace.entries.map((entry, i) => {
          switch (entry.kind) {
            case 'model-call':
              return <ModelCallRow key={i} entry={entry} />;
            case 'tool-search':
              return <ToolSearchRow key={i} entry={entry} />;
            case 'tool-call':
              return <ToolCallRow key={i} entry={entry} serverNames={serverNames} />;
            case 'code-execution':
              return <CodeExecutionRow key={i} entry={entry} />;
            case 'compaction':
              return <CompactionRow key={i} entry={entry} />;
            default:
              return assertNever(entry);
          }
        })}
      </ol>
      {trace.totals.calls > 1 && (
        <p className="trace-total">
          <span className="trace-kind">Turn total</span> <TokenCounts totals={trace.totals} />
        </p>
      )}
    </section>
  );
}

function ModelCallRow({ entry }: { entry: ModelCallTrace }) {
  const limits = limitCountsLine(entry.limits);
  return (
    <li className={entry.error ? 'trace-entry trace-failed' : 'trace-entry'}>
      <span className="trace-kind">
        {entry.sampledFor
          ? `Model call for ${entry.sampledFor.serverName}`
          : entry.purpose === 'summary'
            ? 'Model call for a summary of older messages'
            : 'Model call'}
      </span>{' '}
      <code>{entry.model}</code>
      <span className="muted">
        {' '}
        · {formatDuration(entry.durationMs)} {entry.error ? '' : `· stop: ${entry.stopReason ?? '?'}`}
        {entry.costUsd !== undefined ? ` · ${formatUsd(entry.costUsd)}` : ''}
      </span>
      {entry.error && (
        <p className="trace-detail field-error">
          {entry.error}
          {entry.offendingPart ? ` The part of the request it names: ${entry.offendingPart}.` : ''}
        </p>
      )}
      {entry.unpricedReason && <p className="muted trace-detail">{entry.unpricedReason}</p>}
      {entry.usage ? (
        <dl className="usage">
          <div>
            <dt>Input</dt>
            <dd>{formatCount(entry.usage.input)}</dd>
          </div>
          <div>
            <dt>Output</dt>
            <dd>{formatCount(entry.usage.output)}</dd>
          </div>
          <div>
            <dt>Cache read</dt>
            <dd>{formatCount(entry.usage.cacheRead)}</dd>
          </div>
          <div>
            <dt>Cache write</dt>
            <dd>{formatCount(entry.usage.cacheWrite)}</dd>
          </div>
        </dl>
      ) : null}
      <p className="muted trace-detail">
        {entry.toolNames.length === 0
          ? 'No tools sent'
          : `${entry.toolNames.length} ${entry.toolNames.length === 1 ? 'tool' : 'tools'} sent (about ${formatCount(entry.toolTokens)} ${entry.toolTokens === 1 ? 'token' : 'tokens'} of definitions)`}
      </p>
      {limits && <p className="muted trace-detail trace-limits">{limits}</p>}
    </li>
  );
}

const COMPACTED_BY: Record<CompactionTrace['method'], string> = {
  server: 'summarized by the API’s compaction',
  client: 'summarized by a model call',
  cleared: 'older tool results cleared',
};

function CompactionRow({ entry }: { entry: CompactionTrace }) {
  return (
    <li className="trace-entry">
      <span className="trace-kind">Context compacted</span> {COMPACTED_BY[entry.method]}
      <span className="muted">
        {' '}
        · about {formatCount(entry.tokensBefore)} → {formatCount(entry.tokensAfter)} tokens
      </span>
      {entry.note && <p className="trace-detail">{entry.note}</p>}
    </li>
  );
}

function ToolSearchRow({ entry }: { entry: ToolSearchTrace }) {
  return (
    <li className="trace-entry">
      <span className="trace-kind">Tool search</span> “{entry.query}” <span className="muted">({entry.strategy})</span>
      {entry.caller?.kind === 'code' && <span className="muted"> · called from code</span>}
      <p className="trace-detail">
        {entry.picks.length === 0 ? (
          <span className="muted">found nothing</span>
        ) : (
          entry.picks.map((pick) => (
            <span key={pick.name} className="pick">
              {splitToolName(pick.name)[1]} {/* The API's own search (server mode) ranks without scores. */}
              {!entry.strategy.startsWith('server') && <span className="muted">{pick.score.toFixed(2)}</span>}
            </span>
          ))
        )}
      </p>
    </li>
  );
}

function ToolCallRow({ entry, serverNames }: { entry: ToolCallTrace; serverNames: ReadonlyMap<string, string> }) {
  const [serverPart, apiName] = splitToolName(entry.tool);
  const tool = entry.toolName ?? apiName;
  const server = (entry.serverId && serverNames.get(entry.serverId)) ?? entry.serverId ?? serverPart ?? '?';
  return (
    <li className={entry.isError && !entry.isStopped ? 'trace-entry trace-failed' : 'trace-entry'}>
      <span className="trace-kind">{entry.caller ? 'Tool call from code' : 'Tool call'}</span> {server} ·{' '}
      <code>{tool}</code>
      <span className="muted">
        {' '}
        ·{' '}
        {entry.isRunning
          ? 'running…'
          : `${formatDuration(entry.durationMs)} · ${entry.isStopped ? 'stopped' : entry.isError ? 'failed' : 'ok'}`}
        {entry.approval
          ? ` · ${approvalLabel(entry.approval)}${entry.approval.decision === 'auto-allow' ? '' : ` (${entry.approval.by})`}`
          : ''}
      </span>
      {entry.sent && (
        <p className="muted trace-detail">
          to the model: {formatCount(entry.sent.textChars)} of {formatCount(entry.sent.capChars)} characters
          {entry.sent.isTruncated ? ' (cut)' : ''}
          {entry.sent.images > 0 ? `, ${entry.sent.images} image${entry.sent.images === 1 ? '' : 's'}` : ''}
          {entry.sent.leftOut.length > 0 ? `, ${entry.sent.leftOut.length} item(s) not sent` : ''}
        </p>
      )}
      {entry.error && (
        <p className={entry.isStopped ? 'trace-detail muted' : 'trace-detail field-error'}>{entry.error}</p>
      )}
    </li>
  );
}

/** An execute_code call: how it ended, its tool calls, and the tokens its inner results did not cost the context. */
function CodeExecutionRow({ entry }: { entry: CodeExecutionTrace }) {
  return (
    <li className={entry.status === 'returned' ? 'trace-entry' : 'trace-entry trace-failed'}>
      <span className="trace-kind">Code</span>{' '}
      {entry.runner === 'anthropic' ? <>in Anthropic&apos;s container</> : <code>execute_code</code>}
      <span className="muted">
        {' '}
        · {formatDuration(entry.durationMs)} · {entry.status} · {entry.calls} tool{' '}
        {entry.calls === 1 ? 'call' : 'calls'}
      </span>
      <p className="muted trace-detail">
        About {formatCount(entry.savedTokens)} tokens saved: inner results stayed out of the model&apos;s context
        {entry.error ? ` · ${entry.error}` : ''}
      </p>
    </li>
  );
}

/** The button under a turn that opens its trace, with the turn's count of model and tool calls. */
export function TraceToggle({
  trace,
  panelId,
  isOpen,
  onToggle,
}: {
  trace: TurnTrace;
  panelId: string;
  isOpen: boolean;
  onToggle: () => void;
}) {
  const models = trace.entries.filter((e) => e.kind === 'model-call').length;
  const tools = trace.entries.filter((e) => e.kind === 'tool-call').length;
  return (
    <button
      type="button"
      className="secondary small trace-toggle"
      aria-expanded={isOpen}
      aria-controls={isOpen ? panelId : undefined}
      onClick={onToggle}
    >
      Trace
      <span className="muted">
        {' '}
        · {models} model {models === 1 ? 'call' : 'calls'}
        {tools > 0 ? ` · ${tools} tool ${tools === 1 ? 'call' : 'calls'}` : ''}
      </span>
    </button>
  );
}
