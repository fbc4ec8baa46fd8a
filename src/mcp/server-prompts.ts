import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { PromptContent, PromptInfo, PromptMessage } from '../domain/prompts';

/** Pages of prompts/list read at most: a server that keeps sending a cursor is not followed for ever. */
const MAX_PAGES = 20;

/** All of a server's prompts, page by page (none when it does not offer prompts). */
export async function listAllPrompts(
  client: Client,
  server: { readonly id: string; readonly name: string },
  timeout: number,
): Promise<PromptInfo[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  const prompts: PromptInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listPrompts(cursor ? { cursor } : {}, { timeout });
    for (const prompt of result.prompts)
      prompts.push({
        serverId: server.id,
        serverName: server.name,
        name: prompt.name,
        ...(prompt.title ? { title: prompt.title } : {}),
        ...(prompt.description ? { description: prompt.description } : {}),
        arguments: (prompt.arguments ?? []).map((arg) => ({
          name: arg.name,
          ...(arg.description ? { description: arg.description } : {}),
          isRequired: arg.required === true,
        })),
      });
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return prompts;
}

/** A prompt's messages with the arguments given (prompts/get). */
export async function readPrompt(
  client: Client,
  name: string,
  args: Record<string, string>,
  timeout: number,
): Promise<{ description?: string; messages: PromptMessage[] }> {
  const result = await client.getPrompt({ name, arguments: args }, { timeout });
  return {
    ...(result.description ? { description: result.description } : {}),
    messages: result.messages.map((message) => ({ role: message.role, content: toPromptContent(message.content) })),
  };
}

/** Values a server suggests for a prompt's argument (completion/complete); none when it offers no completions. */
export async function completePromptArgument(
  client: Client,
  promptName: string,
  argument: { readonly name: string; readonly value: string },
  context: Record<string, string>,
  timeout: number,
): Promise<string[]> {
  if (!client.getServerCapabilities()?.completions) return [];
  const result = await client.complete(
    {
      ref: { type: 'ref/prompt', name: promptName },
      argument: { name: argument.name, value: argument.value },
      ...(Object.keys(context).length > 0 ? { context: { arguments: context } } : {}),
    },
    { timeout },
  );
  return result.completion.values.slice(0, 100);
}

function toPromptContent(content: { type: string } & Record<string, unknown>): PromptContent {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (content.type) {
    case 'text':
      return { type: 'text', text: text(content.text) };
    case 'image':
    case 'audio':
      return { type: content.type, mimeType: text(content.mimeType), data: text(content.data) };
    case 'resource': {
      const resource = (content.resource ?? {}) as Record<string, unknown>;
      return {
        type: 'resource',
        uri: text(resource.uri),
        ...(typeof resource.mimeType === 'string' ? { mimeType: resource.mimeType } : {}),
        ...(typeof resource.text === 'string' ? { text: resource.text } : {}),
        ...(typeof resource.blob === 'string' ? { blob: resource.blob } : {}),
      };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: text(content.uri),
        ...(typeof content.name === 'string' ? { name: content.name } : {}),
        ...(typeof content.mimeType === 'string' ? { mimeType: content.mimeType } : {}),
      };
    default:
      return { type: 'text', text: `[Content of type "${content.type}" this app does not know]` };
  }
}
