// Server-side compaction and beta support of the fake Messages API, as the compaction page documents them:
// https://platform.claude.com/docs/en/build-with-claude/compaction
// - the `compact_20260112` edit in `context_management.edits` needs the `compact-2026-01-12` beta header;
// - it is supported on the models the page lists; `trigger` is `{type: 'input_tokens', value}`, default 150,000, at
//   least 50,000;
// - when the input reaches the trigger the API summarizes, answers with a `compaction` block first, then continues;
// - later requests send that block back; the API drops every message block before the last compaction block.
// An Anthropic-compatible endpoint without a beta answers the way the API answers an unknown beta value.

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const COMPACT_BETA = 'compact-2026-01-12';
export const COMPACT_EDIT = 'compact_20260112';
/** "Supported models" on the compaction page. */
export const COMPACTION_MODELS = ['claude-mythos-preview', 'claude-opus-4-7', 'claude-opus-4-6', 'claude-sonnet-4-6'];
export const DEFAULT_COMPACT_TRIGGER = 150_000;
export const MIN_COMPACT_TRIGGER = 50_000;

/** The beta values the request asks for. */
export const requestBetas = (headers: Record<string, string>): string[] =>
  (headers['anthropic-beta'] ?? '')
    .split(',')
    .map((beta) => beta.trim())
    .filter((beta) => beta !== '');

/** The 400 an endpoint answers for a beta it does not offer (the API's wording for an unknown beta), or null. */
export function unsupportedBetaProblem(headers: Record<string, string>, supported: readonly string[] | undefined) {
  if (supported === undefined) return null;
  const unknown = requestBetas(headers).filter((beta) => !supported.includes(beta));
  return unknown.length === 0
    ? null
    : `Unexpected value(s) \`${unknown.join('`, `')}\` for the \`anthropic-beta\` header. Please consult our documentation at docs.claude.com or try again without the header.`;
}

/** The request's compact edit, if any. */
function compactEdit(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const cm = body.context_management;
  const edits = isRecord(cm) && Array.isArray(cm.edits) ? cm.edits : [];
  return edits.find((edit): edit is Record<string, unknown> => isRecord(edit) && edit.type === COMPACT_EDIT);
}

/** The trigger in tokens of the request's compact edit, or undefined without one. */
export function compactTrigger(body: Record<string, unknown>): number | undefined {
  const edit = compactEdit(body);
  if (!edit) return undefined;
  const trigger = edit.trigger;
  return isRecord(trigger) && typeof trigger.value === 'number' ? trigger.value : DEFAULT_COMPACT_TRIGGER;
}

/** Why the API would refuse the request's compaction parts, or null. */
export function compactionProblem(body: Record<string, unknown>, headers: Record<string, string>): string | null {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const hasBeta = requestBetas(headers).includes(COMPACT_BETA);
  for (const [i, message] of messages.entries()) {
    const content = isRecord(message) && Array.isArray(message.content) ? message.content : [];
    const j = content.findIndex((block) => isRecord(block) && block.type === 'compaction');
    if (j >= 0 && !hasBeta)
      return `messages.${i}.content.${j}: 'compaction' blocks require the 'anthropic-beta: ${COMPACT_BETA}' header`;
  }
  const edit = compactEdit(body);
  // Without the beta header the API does not know the edit: contractViolation answers that first.
  if (!edit || !hasBeta) return null;
  const model = String(body.model);
  if (!COMPACTION_MODELS.some((id) => model === id || model.startsWith(`${id}-`)))
    return `context_management.edits.0: '${COMPACT_EDIT}' is not supported on model '${model}'`;
  const trigger = compactTrigger(body) ?? DEFAULT_COMPACT_TRIGGER;
  if (trigger < MIN_COMPACT_TRIGGER)
    return `context_management.edits.0.trigger.value: Input should be greater than or equal to ${MIN_COMPACT_TRIGGER}`;
  return null;
}

/** The body as the model sees it: every message block before the last compaction block dropped. */
export function afterLastCompaction(body: Record<string, unknown>): Record<string, unknown> {
  const messages: unknown[] = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message: unknown = messages[i];
    const content = isRecord(message) && Array.isArray(message.content) ? message.content : [];
    const j = content.findLastIndex((block) => isRecord(block) && block.type === 'compaction');
    if (j >= 0 && isRecord(message))
      return { ...body, messages: [{ ...message, content: content.slice(j) }, ...messages.slice(i + 1)] };
  }
  return body;
}

/** The compaction block the fake answers with: a deterministic summary naming how much it replaced. */
export function fakeCompaction(inputTokens: number): {
  content: string;
  encrypted_content: string;
  inputTokens: number;
} {
  return {
    content: `Summary of the conversation so far (${inputTokens} tokens compacted by the fake API).`,
    encrypted_content: `fake-encrypted-${inputTokens}`,
    inputTokens,
  };
}
