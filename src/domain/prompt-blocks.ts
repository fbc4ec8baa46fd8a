import { base64Text } from './attachment-check';
import { kindOf } from './attachment-kind';
import { base64Bytes, formatBytes } from './byte-size';
import { API_IMAGE_TYPES, imageLimitProblem, sentImageType } from './media-probe';
import type { ContentBlock } from './message';
import type { PromptContent, PromptMessage } from './prompts';

/** A prompt message ready to store: its own role, its content as Messages API blocks. */
export interface PromptTurnMessage {
  readonly role: 'user' | 'assistant';
  readonly blocks: ContentBlock[];
}

/**
 * One prompt content as API blocks: text as text, an API image as an image (user messages only: the API takes none
 * from the assistant), an embedded text resource as text naming its URI; what the API cannot take is named, not sent.
 */
export function promptContentBlocks(content: PromptContent, role: 'user' | 'assistant'): ContentBlock[] {
  switch (content.type) {
    case 'text':
      return [{ type: 'text', text: content.text }];
    case 'image': {
      const type = sentImageType(content.mimeType, content.data);
      const what = `image (${content.mimeType}, ${formatBytes(base64Bytes(content.data))})`;
      if (role === 'user' && API_IMAGE_TYPES.has(type)) return [sentImage(type, content.data, what)];
      return [note(what, 'the model cannot take it here')];
    }
    case 'audio':
      return [
        note(`audio (${content.mimeType}, ${formatBytes(base64Bytes(content.data))})`, 'the model API takes no audio'),
      ];
    case 'resource':
      return resourceBlocks(content, role);
    case 'resource_link':
      return [{ type: 'text', text: `Resource link: ${content.name ? `${content.name} ` : ''}${content.uri}` }];
  }
}

type EmbeddedResource = Extract<PromptContent, { type: 'resource' }>;

/** An embedded resource: its text under its URI (also text sent as a blob), an image blob as an image, else named. */
function resourceBlocks(content: EmbeddedResource, role: 'user' | 'assistant'): ContentBlock[] {
  const under = (text: string): ContentBlock[] => [
    { type: 'text', text: `Resource ${content.uri}${content.mimeType ? ` (${content.mimeType})` : ''}:\n${text}` },
  ];
  if (content.text !== undefined) return under(content.text);
  const isText = kindOf(content.uri, content.mimeType ?? '') === 'text';
  // A text resource sent as a blob (base64) is read as text, as the same resource attached with `@` is.
  const asText = content.blob !== undefined && isText ? base64Text(content.blob) : undefined;
  if (asText !== undefined) return under(asText);
  if (content.blob !== undefined && content.mimeType && role === 'user') {
    const type = sentImageType(content.mimeType, content.blob);
    if (API_IMAGE_TYPES.has(type))
      return [
        sentImage(type, content.blob, `resource ${content.uri} (${type}, ${formatBytes(base64Bytes(content.blob))})`),
      ];
  }
  return [
    note(
      `resource ${content.uri} (${content.mimeType ?? 'binary'}, ${formatBytes(base64Bytes(content.blob ?? ''))})`,
      isText && content.blob !== undefined ? 'it is not UTF-8 text' : 'the model API does not take this type',
    ),
  ];
}

/** The image as an API block, or a note when the API would refuse it. */
function sentImage(type: string, data: string, what: string): ContentBlock {
  const problem = imageLimitProblem(data);
  if (problem) return note(what, problem);
  return { type: 'image', source: { type: 'base64', media_type: type, data } };
}

const note = (what: string, why: string): ContentBlock => ({
  type: 'text',
  text: `[A prompt's ${what} was not sent: ${why}.]`,
});

/** The prompt's messages as the turn's messages, each keeping its role; neighbours of one role stay apart. */
export function promptTurnMessages(messages: readonly PromptMessage[]): PromptTurnMessage[] {
  return messages.map((message) => ({
    role: message.role,
    blocks: promptContentBlocks(message.content, message.role),
  }));
}

/** The prompt as text for the message box, when it is only the person's text; undefined when it holds more. */
export function promptAsText(messages: readonly PromptMessage[]): string | undefined {
  if (messages.length === 0) return undefined;
  const texts: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user' || message.content.type !== 'text') return undefined;
    texts.push(message.content.text);
  }
  return texts.join('\n\n');
}
