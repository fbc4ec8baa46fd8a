import type { ToolContent, ToolCallResult } from '../domain/tool-result';

type RawBlock = Record<string, unknown> & { type?: unknown };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Turns an MCP tools/call result into the app's normalized result; unknown blocks become a short note. */
export function normalizeCallResult(raw: Record<string, unknown>, durationMs: number): ToolCallResult {
  const blocks = Array.isArray(raw.content) ? (raw.content as RawBlock[]) : [];
  const content = blocks.map(normalizeBlock);
  // Pre-2025 servers may answer { toolResult } instead of content.
  if (content.length === 0 && raw.toolResult !== undefined)
    content.push({ type: 'text', text: JSON.stringify(raw.toolResult) });
  const structured = raw.structuredContent;
  const hasStructured = typeof structured === 'object' && structured !== null && !Array.isArray(structured);
  return {
    content,
    ...(hasStructured ? { structuredContent: structured as Record<string, unknown> } : {}),
    isError: raw.isError === true,
    durationMs,
  };
}

function normalizeBlock(block: RawBlock): ToolContent {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: str(block.text) ?? '' };
    case 'image':
    case 'audio': {
      const data = str(block.data);
      const mimeType = str(block.mimeType);
      if (data === undefined || mimeType === undefined) return { type: 'text', text: `[${block.type} without data]` };
      return { type: block.type, data, mimeType };
    }
    case 'resource_link': {
      const uri = str(block.uri) ?? '';
      return {
        type: 'resource_link',
        uri,
        ...optional({ name: str(block.name), mimeType: str(block.mimeType), description: str(block.description) }),
      };
    }
    case 'resource': {
      const resource = (typeof block.resource === 'object' && block.resource !== null ? block.resource : {}) as Record<
        string,
        unknown
      >;
      return {
        type: 'resource',
        uri: str(resource.uri) ?? '',
        ...optional({ mimeType: str(resource.mimeType), text: str(resource.text), blob: str(resource.blob) }),
      };
    }
    default:
      return { type: 'text', text: `[unsupported content block: ${String(block.type).slice(0, 40)}]` };
  }
}

function optional<T extends Record<string, string | undefined>>(fields: T): Partial<Record<keyof T, string>> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<
    Record<keyof T, string>
  >;
}
