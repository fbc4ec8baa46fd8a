// The 400s of the real Messages API that an agent loop most easily provokes, so tests catch them early.

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const blocksOf = (message: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(message.content) ? message.content.filter(isRecord) : [];

const idsOf = (blocks: Record<string, unknown>[], type: string, key: string): string[] =>
  blocks.filter((block) => block.type === type).map((block) => String(block[key]));

function countCacheControl(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countCacheControl(item), 0);
  if (!isRecord(value)) return 0;
  const own = value.cache_control != null ? 1 : 0;
  return own + countCacheControl(value.content);
}

/** Problems in the message sequence: tool_use/tool_result pairing and empty text blocks. */
function checkMessages(messages: unknown[]): string | null {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant'))
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    const blocks = blocksOf(message);
    const emptyText = blocks.findIndex((block) => block.type === 'text' && block.text === '');
    if (emptyText >= 0) return `messages.${i}.content.${emptyText}.text: text content blocks must be non-empty`;
    if (message.content === '')
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    const previous = messages[i - 1];
    const offered =
      message.role === 'user' && isRecord(previous) && previous.role === 'assistant'
        ? idsOf(blocksOf(previous), 'tool_use', 'id')
        : [];
    const answered = idsOf(blocks, 'tool_result', 'tool_use_id');
    const unexpected = answered.filter((id) => !offered.includes(id));
    if (unexpected.length > 0) {
      return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const unanswered = offered.filter((id) => !answered.includes(id));
    if (unanswered.length > 0) {
      return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
    const next = messages[i + 1];
    const used = message.role === 'assistant' ? idsOf(blocks, 'tool_use', 'id') : [];
    if (used.length > 0 && isRecord(next) && next.role !== 'user') {
      return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${used.join(', ')}.`;
    }
  }
  return null;
}

/** The message of the 400 invalid_request_error the real API would answer, or null when the body is acceptable. */
export function invalidRequestReason(body: unknown): string | null {
  if (!isRecord(body)) return 'body: Input should be an object';
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: Field required';
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools) || !body.tools.every((tool) => isRecord(tool) && typeof tool.name === 'string'))
      return 'tools: Input should be a list of tools';
    const names = body.tools.map((tool: Record<string, unknown>) => String(tool.name));
    if (new Set(names).size !== names.length) return 'tools: Tool names must be unique.';
  }
  const breakpoints = countCacheControl(body.tools) + countCacheControl(body.system) + countCacheControl(body.messages);
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  return checkMessages(body.messages);
}
