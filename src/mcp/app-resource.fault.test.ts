import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../domain/tool-catalog';
import { APP_MIME_TYPE, appResourceOf, appResourceUri, isAppOnlyTool, MAX_APP_HTML_CHARS } from './app-resource';

const tool = (meta?: Record<string, unknown>): ToolDefinition => ({
  name: 'show',
  inputSchema: { type: 'object' },
  ...(meta ? { _meta: meta } : {}),
});
const read = (content: Record<string, unknown>) =>
  ({ ok: true, contents: [{ type: 'resource', uri: 'ui://x/app.html', ...content }] }) as const;

describe('MCP App detection', () => {
  it('finds the ui:// resource a tool declares, in the current and the older form', () => {
    expect(appResourceUri(tool({ ui: { resourceUri: 'ui://weather/app.html' } }))).toBe('ui://weather/app.html');
    expect(appResourceUri(tool({ 'ui/resourceUri': 'ui://weather/old.html' }))).toBe('ui://weather/old.html');
  });

  it('sees no app in a plain tool or one whose resource is not ui://', () => {
    expect(appResourceUri(tool())).toBeUndefined();
    expect(appResourceUri(tool({ ui: { resourceUri: 'https://evil.example/app.html' } }))).toBeUndefined();
  });

  it('tells a tool meant only for its app', () => {
    expect(isAppOnlyTool(tool({ ui: { resourceUri: 'ui://a/b', visibility: ['app'] } }))).toBe(true);
    expect(isAppOnlyTool(tool({ ui: { resourceUri: 'ui://a/b', visibility: ['model', 'app'] } }))).toBe(false);
  });
});

describe('an MCP App resource', () => {
  it('gives the HTML and the declared CSP', () => {
    const app = appResourceOf(
      'ui://x/app.html',
      read({
        mimeType: APP_MIME_TYPE,
        text: '<p>hi</p>',
        meta: { ui: { csp: { connectDomains: ['https://a.example'] }, prefersBorder: true } },
      }),
    );
    expect(app).toEqual({
      ok: true,
      html: '<p>hi</p>',
      csp: { connectDomains: ['https://a.example'] },
      prefersBorder: true,
    });
  });

  it('decodes an app sent as a base64 blob', () => {
    const app = appResourceOf(
      'ui://x/app.html',
      read({ mimeType: APP_MIME_TYPE, blob: btoa('<p>é</p>'.replace('é', '\u00c3\u00a9')) }),
    );
    expect(app).toMatchObject({ ok: true, html: '<p>é</p>' });
  });

  it('refuses what is not an app, too large, empty or unreadable, with one line to show', () => {
    expect(appResourceOf('ui://x/app.html', read({ mimeType: 'text/plain', text: 'x' }))).toEqual({
      ok: false,
      message: 'ui://x/app.html is not an app (its type is text/plain).',
    });
    const big = appResourceOf(
      'ui://x/app.html',
      read({ mimeType: APP_MIME_TYPE, text: 'x'.repeat(MAX_APP_HTML_CHARS + 1) }),
    );
    expect(big).toMatchObject({ ok: false, message: expect.stringContaining('too large') as string });
    expect(appResourceOf('ui://x/app.html', read({ mimeType: APP_MIME_TYPE, text: ' ' }))).toMatchObject({ ok: false });
    expect(appResourceOf('ui://x/app.html', { ok: false, message: 'Server could not read it' })).toEqual({
      ok: false,
      message: 'Server could not read it',
    });
  });
});
