/**
 * The Content-Security-Policy of one MCP App (issue #21), built from the origins its `ui://` resource declares
 * (`_meta.ui.csp`, the io.modelcontextprotocol/ui extension). The app's HTML gets it as the first tag of its document,
 * so the app can reach the declared origins and nothing else. The sandbox page it runs in (public/mcp-app/) adds
 * its own fixed policy on top (MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY); both must allow a request.
 */

/** The origins a resource declares, as the extension names them. */
export interface AppCspDeclaration {
  readonly connectDomains?: unknown;
  readonly resourceDomains?: unknown;
  readonly frameDomains?: unknown;
  readonly baseUriDomains?: unknown;
}

/** What the builder made of a declaration: the policy, and the entries it refused (shown to the person). */
export interface AppCsp {
  readonly policy: string;
  readonly refused: readonly string[];
}

// An origin, optionally with a wildcard subdomain or port: nothing that could close the directive or add a keyword.
const ORIGIN = /^(https|http|wss|ws):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?\/?$/i;

/** The declared entries that are plain origins (no keywords, no schemes alone, no `*`), and the ones refused. */
export function declaredOrigins(entries: unknown): { origins: string[]; refused: string[] } {
  const origins: string[] = [];
  const refused: string[] = [];
  if (entries !== undefined && !Array.isArray(entries))
    return { origins, refused: [JSON.stringify(entries) ?? typeof entries] };
  for (const entry of (entries ?? []) as readonly unknown[]) {
    if (typeof entry === 'string' && ORIGIN.test(entry)) {
      const origin = entry.replace(/\/$/, '');
      if (!origins.includes(origin)) origins.push(origin);
    } else refused.push(typeof entry === 'string' ? entry : (JSON.stringify(entry) ?? String(entry)));
  }
  return { origins, refused };
}

const sources = (fixed: readonly string[], origins: readonly string[]) => [...fixed, ...origins].join(' ') || "'none'";

/**
 * The app's policy: inline script and style (an app is one HTML document), data: and blob: for what it builds itself,
 * the declared resource origins for scripts, styles, images, fonts and media, the declared connect origins for
 * fetch/XHR/WebSocket, and nothing else: no forms, no plugins, no nested frames or base URL unless declared.
 */
export function buildAppCsp(declaration: AppCspDeclaration | undefined): AppCsp {
  const resource = declaredOrigins(declaration?.resourceDomains);
  const connect = declaredOrigins(declaration?.connectDomains);
  const frame = declaredOrigins(declaration?.frameDomains);
  const base = declaredOrigins(declaration?.baseUriDomains);
  const policy = [
    "default-src 'none'",
    `script-src ${sources(["'unsafe-inline'", "'unsafe-eval'", 'blob:'], resource.origins)}`,
    `style-src ${sources(["'unsafe-inline'", 'blob:', 'data:'], resource.origins)}`,
    `img-src ${sources(['data:', 'blob:'], resource.origins)}`,
    `font-src ${sources(['data:', 'blob:'], resource.origins)}`,
    `media-src ${sources(['data:', 'blob:'], resource.origins)}`,
    `worker-src ${sources(['blob:'], resource.origins)}`,
    `connect-src ${sources([], connect.origins)}`,
    `frame-src ${sources([], frame.origins)}`,
    "object-src 'none'",
    `base-uri ${sources([], base.origins)}`,
    "form-action 'none'",
  ].join('; ');
  return { policy, refused: [...resource.refused, ...connect.refused, ...frame.refused, ...base.refused] };
}

/** Escapes text for an HTML attribute value in double quotes. */
const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The app's HTML with its policy as the document's first tag: parsed before anything of the app, so no markup or
 * script of the app runs outside it (a policy, once applied, cannot be removed or loosened by the document).
 */
export function withAppCsp(html: string, policy: string): string {
  return `<!doctype html><meta http-equiv="Content-Security-Policy" content="${attribute(policy)}">${html}`;
}
