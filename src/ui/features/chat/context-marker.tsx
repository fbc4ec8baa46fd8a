import type { ContextCompaction } from '../../../domain/compaction';
import type { Message } from '../../../domain/message';
import { formatCount } from './format';

const HOW: Record<ContextCompaction['method'], string> = {
  server: 'The model’s context starts here: the messages above are summarized by the API’s compaction.',
  client: 'The model’s context starts here: the messages above are summarized by the app (a model call).',
  cleared: 'From here back, older tool results are cleared from the model’s context.',
};

/** Where each compaction's context starts: the first shown message at or after its first kept one. */
export function markersByMessage(
  compactions: readonly ContextCompaction[],
  visible: readonly Message[],
): Map<string, ContextCompaction[]> {
  const out = new Map<string, ContextCompaction[]>();
  for (const record of compactions) {
    const at = visible.find((m) => m.seq >= record.firstKeptSeq);
    if (at) out.set(at.id, [...(out.get(at.id) ?? []), record]);
  }
  return out;
}

/** A line in the thread where the model's context was compacted; every message above stays in the thread. */
export function ContextMarker({ compaction }: { compaction: ContextCompaction }) {
  return (
    <div className="context-marker" role="note" aria-label="Context compaction">
      <p>
        {HOW[compaction.method]}{' '}
        <span className="muted">
          About {formatCount(compaction.tokensBefore)} → {formatCount(compaction.tokensAfter)} tokens; every message is
          still here.
        </span>
      </p>
      {compaction.note && <p className="muted">{compaction.note}</p>}
      {compaction.summary && (
        <details className="context-summary">
          <summary>The summary the model sees</summary>
          <p>{compaction.summary}</p>
        </details>
      )}
    </div>
  );
}
