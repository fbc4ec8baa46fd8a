import { useId, useState } from 'react';
import type { SamplingContent, SamplingReply, SamplingRequest } from '../../../domain/sampling';
import type { PendingSampling, RefusedSampling } from '../../../stores/sampling-requests';
import { modelEnded } from './stop-reason';

/**
 * A server's request to run the model on the person's key: what it would send (editable), the model preferences and
 * max tokens, then, once run, the answer, which goes back to the server only when the person sends it.
 */
export function SamplingCard({ request }: { request: PendingSampling }) {
  const { stage, plan } = request;
  return (
    <section className="approval sampling" aria-label={`Model request from ${request.serverName}`} tabIndex={-1}>
      <p>
        <strong>{request.serverName}</strong> wants to run the model with this request.
      </p>
      <ModelLine request={request.request} model={plan.model} maxTokens={plan.maxTokens} note={plan.modelNote} />
      {request.allowedForThread && <AllowedMark request={request} />}
      {stage.kind === 'review' || stage.kind === 'failed' ? (
        <ReviewForm request={request} />
      ) : stage.kind === 'running' ? (
        <p className="muted" role="status">
          Running on {plan.model}…
        </p>
      ) : stage.kind === 'sent' ? (
        <SentRequest request={request} sent={stage.request} reply={stage.reply} />
      ) : (
        <>
          <p className="field-label">{modelEnded(stage.reply.stopReason)}:</p>
          <p className="sampling-answer tool-text">{stage.reply.text || '(no text)'}</p>
          <div className="approval-actions">
            <button type="button" onClick={request.send}>
              Send answer to {request.serverName}
            </button>
            <button type="button" className="secondary" onClick={request.reject}>
              Reject answer
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/** The mark of a request that ran without asking, and the way to stop allowing the server in this thread. */
function AllowedMark({ request }: { request: PendingSampling }) {
  return (
    <p className="muted note sampling-allowed">
      {request.stoppedAllowing ? (
        <>Ran without asking: was allowed for this thread (stopped; its next request asks first).</>
      ) : (
        <>
          Ran without asking: allowed for this thread.{' '}
          <button type="button" className="secondary small" onClick={request.stopAllowing}>
            Stop allowing
          </button>
        </>
      )}
    </p>
  );
}

/** What an allowed request sent to the model and what went back to the server (inert text). */
function SentRequest({
  request,
  sent,
  reply,
}: {
  request: PendingSampling;
  sent: SamplingRequest;
  reply: SamplingReply;
}) {
  return (
    <>
      <p className="field-label">It sent:</p>
      {sent.systemPrompt && <p className="sampling-answer tool-text">System: {sent.systemPrompt}</p>}
      {sent.messages.map((message, m) => (
        <p key={m} className="sampling-answer tool-text">
          {message.role}:{' '}
          {message.content.map((part) => (part.type === 'text' ? part.text : describePart(part))).join(' ')}
        </p>
      ))}
      <p className="field-label">
        {modelEnded(reply.stopReason)}; its answer, sent to {request.serverName}:
      </p>
      <p className="sampling-answer tool-text">{reply.text || '(no text)'}</p>
      <div className="approval-actions">
        <button type="button" className="secondary" onClick={request.dismiss}>
          Dismiss
        </button>
      </div>
    </>
  );
}

function ModelLine({
  request,
  model,
  maxTokens,
  note,
}: {
  request: SamplingRequest;
  model: string;
  maxTokens: number;
  note: string | undefined;
}) {
  const { cost, speed, intelligence } = request.priorities;
  const priorities = [
    cost !== undefined ? `cost ${cost}` : '',
    speed !== undefined ? `speed ${speed}` : '',
    intelligence !== undefined ? `intelligence ${intelligence}` : '',
  ].filter(Boolean);
  return (
    <ul className="muted sampling-facts">
      <li>
        Model: <code>{model}</code> (yours){note ? ` — ${note}` : ''}
      </li>
      {request.modelHints.length > 0 && <li>Models it prefers: {request.modelHints.join(', ')}</li>}
      {priorities.length > 0 && <li>Priorities: {priorities.join(', ')}</li>}
      <li>
        Max tokens: {maxTokens}
        {maxTokens < request.maxTokens ? ` (it asked for ${request.maxTokens}; capped at your setting)` : ''}
      </li>
      {request.temperature !== undefined && <li>Temperature it asked for: {request.temperature} (not applied)</li>}
      {request.includeContext && request.includeContext !== 'none' && (
        <li>It asked to include context from {request.includeContext}: none is added.</li>
      )}
    </ul>
  );
}

function ReviewForm({ request }: { request: PendingSampling }) {
  const id = useId();
  const [system, setSystem] = useState(request.request.systemPrompt ?? '');
  const [texts, setTexts] = useState<string[]>(() =>
    request.request.messages.flatMap((m) => m.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))),
  );
  let textIndex = 0;
  const failed = request.stage.kind === 'failed' ? request.stage.message : undefined;
  const edits = () => ({ ...(system || request.request.systemPrompt ? { systemPrompt: system } : {}), texts });
  return (
    <form
      className="sampling-form"
      onSubmit={(event) => {
        event.preventDefault();
        request.approve(edits());
      }}
    >
      <label htmlFor={`${id}-system`}>System prompt</label>
      <textarea id={`${id}-system`} rows={2} value={system} onChange={(e) => setSystem(e.target.value)} />
      {request.request.messages.map((message, m) => (
        <fieldset key={m} className="sampling-message">
          <legend>
            Message {m + 1} ({message.role})
          </legend>
          {message.content.map((part, p) => {
            if (part.type !== 'text')
              return (
                <p key={p} className="muted">
                  {describePart(part)}
                </p>
              );
            const index = textIndex++;
            return (
              <textarea
                key={p}
                aria-label={`Message ${m + 1} text`}
                rows={3}
                value={texts[index] ?? ''}
                onChange={(e) => setTexts(texts.map((t, i) => (i === index ? e.target.value : t)))}
              />
            );
          })}
        </fieldset>
      ))}
      {failed && (
        <p className="field-error" role="alert">
          The model call failed: {failed}
        </p>
      )}
      <div className="approval-actions">
        <button type="submit">{failed ? 'Try again' : 'Approve and run'}</button>
        {!request.allowedForThread && (
          <button type="button" className="secondary" onClick={() => request.allowForThread(edits())}>
            Allow for this thread
          </button>
        )}
        <button type="button" className="secondary" onClick={request.reject}>
          Reject
        </button>
      </div>
    </form>
  );
}

function describePart(part: Exclude<SamplingContent, { type: 'text' }>): string {
  const kb = Math.ceil((part.data.length * 3) / 4 / 1024);
  return `[${part.type === 'image' ? 'Image' : 'Audio'}, ${part.mimeType}, about ${kb} KB]`;
}

/** A request refused without asking, with the reason, until the person dismisses it. */
export function RefusedSamplingNote({ refused, onDismiss }: { refused: RefusedSampling; onDismiss: () => void }) {
  return (
    <p className="muted note sampling-refused" role="status">
      {refused.serverName} asked to run the model and was refused: {refused.reason}.{' '}
      <button type="button" className="secondary small" onClick={onDismiss}>
        Dismiss
      </button>
    </p>
  );
}
