/** One argument of a server's prompt. */
export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly isRequired: boolean;
}

/** A server's prompt (prompts/list), named with its server. */
export interface PromptInfo {
  readonly serverId: string;
  readonly serverName: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgument[];
}

/** One content of a prompt message, as the server gave it (MCP content types). */
export type PromptContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio'; readonly mimeType: string; readonly data: string }
  | {
      readonly type: 'resource';
      readonly uri: string;
      readonly mimeType?: string;
      readonly text?: string;
      readonly blob?: string;
    }
  | { readonly type: 'resource_link'; readonly uri: string; readonly name?: string; readonly mimeType?: string };

export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: PromptContent;
}

/** A server's prompts, or why they could not be listed. Never thrown. */
export type PromptListing =
  { readonly ok: true; readonly prompts: readonly PromptInfo[] } | { readonly ok: false; readonly message: string };

/** A prompt's messages (prompts/get), or why it could not be had. Never thrown. */
export type PromptReading =
  | { readonly ok: true; readonly description?: string; readonly messages: readonly PromptMessage[] }
  | { readonly ok: false; readonly message: string };

/** The label of a prompt: its title, else its name. */
export const promptLabel = (prompt: Pick<PromptInfo, 'name' | 'title'>): string => prompt.title || prompt.name;
