import { ModelError } from '../domain/model-errors';
import type { ModelRequest } from './model-port';

// A 400 from the Messages API names the offending part of the request by its path in the body ("tools.2.custom.name:
// …", "messages.4.content.1: …"). The trace shows that part as the person knows it: which tool, which block.

type SentRequest = Pick<ModelRequest, 'tools'> & Partial<Pick<ModelRequest, 'messages'>>;

const sentRequests = new WeakMap<object, SentRequest>();

/** Remembers the request a failed call sent, for offendingPart. */
export function rememberRequest(error: unknown, request: SentRequest): void {
  if (typeof error === 'object' && error !== null) sentRequests.set(error, request);
}

const PATH = /^(tools|messages)\.(\d+)(?:\.content\.(\d+))?/;

/** The part of the request a 400 names, described for the trace; nothing for other errors or unknown paths. */
export function offendingPart(error: unknown, fallback: SentRequest): { offendingPart?: string } {
  if (!(error instanceof ModelError) || error.status !== 400 || !error.detail) return {};
  const match = PATH.exec(error.detail);
  if (!match) return {};
  const request = sentRequests.get(error) ?? fallback;
  const [path, list, index, blockIndex] = match;
  const i = Number(index);
  if (list === 'tools') {
    const tool = request.tools[i];
    return tool ? { offendingPart: `the tool ${tool.name} (${path})` } : {};
  }
  const message = request.messages?.[i];
  if (!message) return {};
  if (blockIndex === undefined) return { offendingPart: `the ${message.role} message ${i} (${path})` };
  const block = message.content[Number(blockIndex)];
  if (!block) return { offendingPart: `the ${message.role} message ${i} (${path})` };
  const what =
    block.type === 'tool_use'
      ? `the tool_use block of ${block.name} (${block.id})`
      : block.type === 'tool_result'
        ? `the tool_result block for ${toolNameOf(request, block.tool_use_id) ?? 'an unknown tool'} (${block.tool_use_id})`
        : block.type === 'text'
          ? `a text block (“${block.text.slice(0, 60)}${block.text.length > 60 ? '…' : ''}”)`
          : `a ${block.type} block`;
  return { offendingPart: `${what} in the ${message.role} message ${i} (${path})` };
}

function toolNameOf(request: SentRequest, toolUseId: string): string | undefined {
  for (const message of request.messages ?? [])
    for (const block of message.content) if (block.type === 'tool_use' && block.id === toolUseId) return block.name;
  return undefined;
}
