import { z } from 'zod';

/** Hostnames for which plain http is acceptable: traffic never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A host (with a port, maybe) and a path typed without the scheme: "localhost:3000/mcp", "example.com/mcp". */
const WITHOUT_SCHEME = /^(?![a-z][a-z0-9+.-]*:\/\/)([^\s/:]+)(:\d+)?(\/|$)/i;

/** Why a server URL is unacceptable, or undefined when it is fine. */
export function serverUrlProblem(raw: string): string | undefined {
  const bare = WITHOUT_SCHEME.exec(raw);
  if (bare && (isLoopbackHost(bare[1]!) || bare[1]!.includes('.'))) {
    // Without a scheme the browser reads "localhost:" as one: say what to type instead (http only where the page's
    // security policy allows it, below).
    const host = bare[1]!.toLowerCase();
    const scheme = host === 'localhost' || host === '127.0.0.1' ? 'http' : 'https';
    return `needs its scheme at the start: ${scheme}://${raw}`;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a full URL such as https://example.com/mcp';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must use https:// (got ${url.protocol})`;
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return 'must use https:// for a remote host; plain http:// is allowed only for localhost, since tokens would travel in clear';
  }
  // The built page's CSP (vite.config.ts) names exactly these two; Chrome cannot express IPv6 literals in CSP.
  if (url.protocol === 'http:' && url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') {
    return "over plain http:// must name localhost or 127.0.0.1 (the page's security policy allows no other loopback address); use https:// otherwise";
  }
  if (url.username || url.password) return 'must not contain a user name or password; use the auth settings instead';
  return undefined;
}

export const ServerUrl = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = serverUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `Server URL ${problem}` });
  });

/** Letters, digits, "-" and single "_" between them: "__" separates server and tool in model tool names. */
export const ServerId = z
  .string()
  .max(48, 'Server id must be at most 48 characters')
  .regex(
    /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/,
    'Server id may contain letters, digits, "-" and single "_" between them',
  );

/** Header names the transport sets itself; a user header must not override them. */
const RESERVED_HEADERS = new Set([
  'accept',
  'content-type',
  'content-length',
  'host',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'origin',
  'cookie',
]);

/** Request headers a page may not set (the Fetch standard's forbidden names): the browser would drop them silently. */
const FORBIDDEN_HEADERS = new Set([
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'connection',
  'cookie2',
  'date',
  'dnt',
  'expect',
  'keep-alive',
  'referer',
  'set-cookie',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
]);

/** Why a header name cannot be sent from the browser, or undefined when it can. */
export function headerNameProblem(raw: string): string | undefined {
  const name = raw.trim().toLowerCase();
  if (!name) return 'Header name is required';
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name))
    return "Header name may contain only letters, digits and !#$%&'*+.^_`|~-";
  if (RESERVED_HEADERS.has(name)) return 'Header name is reserved for the MCP transport';
  if (FORBIDDEN_HEADERS.has(name) || name.startsWith('proxy-') || name.startsWith('sec-'))
    return `Browsers do not let a page send the header "${raw.trim()}"`;
  return undefined;
}

/** Why a header value (or bearer token) cannot be sent, or undefined: fetch rejects line breaks and non-Latin-1 text. */
export function headerValueProblem(value: string): string | undefined {
  if (/[\r\n\0]/.test(value)) return 'must be one line';
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) return 'may contain only printable Latin-1 characters';
  return undefined;
}

export const HeaderName = z
  .string()
  .trim()
  .superRefine((name, ctx) => {
    const problem = headerNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const AuthConfig = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('none') }),
    /** The token itself lives in the vault. */
    z.object({ kind: z.literal('bearer') }),
    /** Header values live in the vault; only the names are configuration. */
    z.object({
      kind: z.literal('headers'),
      headerNames: z
        .array(HeaderName)
        .min(1, 'Custom headers need at least one header name')
        .refine(
          (names) => new Set(names.map((n) => n.toLowerCase())).size === names.length,
          'Header names must be unique',
        ),
    }),
    z.object({
      kind: z.literal('oauth'),
      /** A pre-registered client id; otherwise discovery picks a client metadata document or dynamic registration. */
      clientId: z.string().min(1).optional(),
      scopes: z.array(z.string().min(1)).optional(),
    }),
  ],
  { error: () => 'Auth kind must be one of none, bearer, headers, oauth' },
);
export type AuthConfig = z.infer<typeof AuthConfig>;
export type AuthKind = AuthConfig['kind'];

export const ToolOverride = z.object({
  enabled: z.boolean().optional(),
  /** false: code the model writes (execute_code) may not call the tool; the model itself still may. */
  callableFromCode: z.boolean().optional(),
  description: z.string().max(4000, 'Description override must be at most 4000 characters').optional(),
});
export type ToolOverride = z.infer<typeof ToolOverride>;

export const TransportPreference = z.enum(['auto', 'http', 'sse'], {
  error: () => 'Transport must be auto, http or sse',
});
export type TransportPreference = z.infer<typeof TransportPreference>;

/** A server's own deferral: true follows the tool-search settings, false always loads, "always" always defers. */
export const ServerDeferTools = z.union([z.boolean(), z.literal('always')], {
  error: () =>
    'deferTools must be true (as the tool search settings say), false (always load) or "always" (always defer)',
});
export type ServerDeferTools = z.infer<typeof ServerDeferTools>;

/** One remote MCP server as configured by the deployer (app scope) or a person (user scope). */
export const ServerConfig = z.object({
  id: ServerId,
  name: z.string().trim().min(1, 'Server name is required').max(64, 'Server name must be at most 64 characters'),
  url: ServerUrl,
  transport: TransportPreference.default('auto'),
  auth: AuthConfig.default({ kind: 'none' }),
  enabled: z.boolean().default(true),
  toolOverrides: z.record(z.string(), ToolOverride).default({}),
  /**
   * true: the tool-search settings decide; false: always load (its tools in every call, never deferred); "always":
   * always defer (its tools wait behind tool search even where the settings would send every tool).
   */
  deferTools: ServerDeferTools.default(true),
  /** Route this server's requests (MCP, OAuth discovery, registration, token) through the CORS relay. */
  viaRelay: z.boolean().default(false),
  /** The registry name of the directory entry this server was added from without asking (`discovery.autoDiscover`). */
  fromDirectory: z.string().max(200).optional(),
});
export type ServerConfig = z.infer<typeof ServerConfig>;
export type ServerConfigInput = z.input<typeof ServerConfig>;

/** Adds "duplicate id / name" issues to a list of servers (used by every schema holding a list). */
export function checkUniqueServers(
  servers: readonly { id: string; name: string }[],
  ctx: z.RefinementCtx,
  path: (string | number)[] = [],
): void {
  const ids = new Map<string, number>();
  const names = new Map<string, number>();
  servers.forEach((server, index) => {
    if (ids.has(server.id))
      ctx.addIssue({
        code: 'custom',
        path: [...path, index, 'id'],
        message: `Duplicate server id "${server.id}" (also at position ${ids.get(server.id)})`,
      });
    else ids.set(server.id, index);
    const name = server.name.trim().toLowerCase();
    if (names.has(name))
      ctx.addIssue({
        code: 'custom',
        path: [...path, index, 'name'],
        message: `Duplicate server name "${server.name}"`,
      });
    else names.set(name, index);
  });
}

/** Vault slot of a server's bearer token. */
export const BEARER_SLOT = 'bearer';
/** Vault slot of a custom header's value. */
export function headerSlot(headerName: string): string {
  return `header:${headerName.toLowerCase()}`;
}
