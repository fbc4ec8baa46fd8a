import {
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppCspDeclaration } from '../domain/mcp-app-csp';
import type { ToolDefinition } from '../domain/tool-catalog';
import type { ResourceReading } from '../domain/tool-display';

/** The largest app document shown (its HTML as text); a larger one shows the plain result with a notice. */
export const MAX_APP_HTML_CHARS = 2_000_000;

/** The MIME type of an MCP App's resource (`text/html;profile=mcp-app`). */
export const APP_MIME_TYPE = RESOURCE_MIME_TYPE;

/** A tool's MCP App resource (`ui://…`) as its `_meta` declares it (the extension's helper), or undefined. Never throws. */
export function appResourceUri(definition: ToolDefinition): string | undefined {
  try {
    return getToolUiResourceUri(definition as Parameters<typeof getToolUiResourceUri>[0]);
  } catch {
    return undefined; // A resourceUri that is not ui:// is no app.
  }
}

/** Whether the tool is meant only for its app (`_meta.ui.visibility: ["app"]`): the model is never offered it. */
export function isAppOnlyTool(definition: ToolDefinition): boolean {
  try {
    return isToolVisibilityAppOnly(definition as Parameters<typeof isToolVisibilityAppOnly>[0]);
  } catch {
    return false;
  }
}

/** An app's document ready for the sandbox, or why it cannot be shown (one line for the card). */
export type AppResource =
  | {
      readonly ok: true;
      readonly html: string;
      readonly csp?: AppCspDeclaration;
      /** The app asks for a border (`_meta.ui.prefersBorder`). */
      readonly prefersBorder?: boolean;
    }
  | { readonly ok: false; readonly message: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Decodes base64 as UTF-8 text, or undefined when it is not base64. */
function decodeBase64(blob: string): string | undefined {
  try {
    const binary = atob(blob);
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** Checks a read `ui://` resource: one HTML document of the app's MIME type, within the size cap. */
export function appResourceOf(uri: string, reading: ResourceReading): AppResource {
  if (!reading.ok) return { ok: false, message: reading.message };
  const content = reading.contents.find((c) => c.uri === uri) ?? reading.contents[0];
  if (!content) return { ok: false, message: `${uri} is empty.` };
  const mimeType = content.mimeType?.replace(/\s+/g, '').toLowerCase();
  if (mimeType !== APP_MIME_TYPE)
    return { ok: false, message: `${uri} is not an app (its type is ${content.mimeType ?? 'not given'}).` };
  const size = (content.text?.length ?? 0) + (content.blob?.length ?? 0);
  if (size > MAX_APP_HTML_CHARS)
    return {
      ok: false,
      message: `${uri} is too large to show (over ${MAX_APP_HTML_CHARS / 1_000_000} million characters).`,
    };
  const html = content.text ?? (content.blob !== undefined ? decodeBase64(content.blob) : undefined);
  if (html === undefined || html.trim() === '') return { ok: false, message: `${uri} holds no HTML.` };
  const ui = isRecord(content.meta) && isRecord(content.meta.ui) ? content.meta.ui : {};
  const csp = isRecord(ui.csp) ? (ui.csp as AppCspDeclaration) : undefined;
  return {
    ok: true,
    html,
    ...(csp ? { csp } : {}),
    ...(typeof ui.prefersBorder === 'boolean' ? { prefersBorder: ui.prefersBorder } : {}),
  };
}
