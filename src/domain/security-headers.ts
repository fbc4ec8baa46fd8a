/**
 * The page's Content-Security-Policy as a `<meta>` tag can carry it: scripts and styles only from this origin (no
 * inline script, no eval: the MCP SDK gets a validator that compiles no code), images from here, data: URLs (tool
 * images) or blob: URLs (only this page's script can make one: thumbnails of sent attachments), audio from data: URLs (tool audio), connections to https anywhere (the model API, MCP and OAuth servers) and to plain-http servers on
 * localhost or 127.0.0.1 (Chrome accepts no IPv6 literal in CSP; server-config.ts refuses other plain-http hosts).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' data:",
  "font-src 'self'",
  // The code sandbox (public/sandbox/) and the MCP Apps sandbox (public/mcp-app/): frames of this origin, each under
  // its own policy (SANDBOX_HEADERS, MCP_APP_SANDBOX_HEADERS) and sandboxed to an opaque origin.
  "frame-src 'self'",
  // The service worker (sw.js, which keeps the app for offline use) and the web app manifest, both from this origin.
  "worker-src 'self'",
  "manifest-src 'self'",
  "connect-src 'self' https: http://localhost:* http://127.0.0.1:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** What only a header can say: no other page may frame this one (a `<meta>` CSP ignores frame-ancestors). */
export const FRAME_ANCESTORS = "frame-ancestors 'none'";

/**
 * The headers a deployment must send with every response. Permissions-Policy switches off the powerful features the
 * app never uses, so a compromised dependency cannot ask for them either.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; ${FRAME_ANCESTORS}`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), bluetooth=(), midi=(), display-capture=()',
};

/** Where the code sandbox's files are served (public/sandbox/), relative to the app's base path. */
export const SANDBOX_DIRECTORY = 'sandbox/';

/**
 * The code sandbox's own policy (issue #18): it runs the model's code, so it may evaluate code ('unsafe-eval', its
 * worker from a blob: URL) and nothing else: no connections, no images, no forms; only this app may frame it. The
 * page that frames it keeps its own policy, without unsafe-eval, and sandboxes the frame to an opaque origin.
 */
export const SANDBOX_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-eval' blob:",
  'worker-src blob:',
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** The headers of the sandbox's files: its policy instead of the page's (which forbids framing and eval). */
export const SANDBOX_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': SANDBOX_CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy': SECURITY_HEADERS['Permissions-Policy']!,
};

/** Where the MCP Apps sandbox proxy is served (public/mcp-app/), relative to the app's base path (issue #21). */
export const MCP_APP_DIRECTORY = 'mcp-app/';

// What an app may ever reach, whatever it declares: https anywhere, and plain http/ws on this machine (as the page).
const APP_REACH = 'https: http://localhost:* http://127.0.0.1:*';

/**
 * The MCP Apps sandbox proxy's own policy (issue #21). Its inner frame, the app's document, inherits it, and the app's
 * own policy, built from what its resource declares (mcp-app-csp.ts), is added on top: a request must pass both. This
 * one is the outer bound: inline script for the app's one document, no nested frames at all (so the app's frame cannot
 * be navigated elsewhere either), no forms, no plugins; only this app may frame it.
 */
export const MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: ${APP_REACH}`,
  `style-src 'self' 'unsafe-inline' blob: data: ${APP_REACH}`,
  `img-src data: blob: ${APP_REACH}`,
  `font-src data: blob: ${APP_REACH}`,
  `media-src data: blob: ${APP_REACH}`,
  `worker-src blob: ${APP_REACH}`,
  `connect-src wss: ws://localhost:* ws://127.0.0.1:* ${APP_REACH}`,
  "frame-src 'none'",
  "object-src 'none'",
  `base-uri ${APP_REACH}`,
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** The headers of the MCP Apps proxy's files: its policy instead of the page's. */
export const MCP_APP_SANDBOX_HEADERS: Readonly<Record<string, string>> = {
  ...SANDBOX_HEADERS,
  'Content-Security-Policy': MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY,
};

/** The headers of one path of the app (below `base`): each sandbox's for its directory, the page's for the rest. */
export function headersForPath(
  pathname: string,
  base = '/',
  pageHeaders: Readonly<Record<string, string>> = SECURITY_HEADERS,
): Readonly<Record<string, string>> {
  if (pathname.startsWith(`${base}${MCP_APP_DIRECTORY}`)) return MCP_APP_SANDBOX_HEADERS;
  return pathname.startsWith(`${base}${SANDBOX_DIRECTORY}`) ? SANDBOX_HEADERS : pageHeaders;
}

/**
 * The development server's headers: its page needs inline scripts for hot reload, so its CSP says only what cannot be
 * said in the page; the others are as deployed.
 */
export const DEV_SERVER_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': FRAME_ANCESTORS,
};

/**
 * The headers as a `_headers` file (Netlify, Cloudflare Pages): every path gets them, and the sandbox's directory
 * detaches the page's policy and framing ban ("! Name", Cloudflare Pages' syntax) for its own.
 */
export function headersFile(headers: Readonly<Record<string, string>> = SECURITY_HEADERS, base = '/'): string {
  const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
  const own = (policy: string) => [
    '  ! Content-Security-Policy',
    '  ! X-Frame-Options',
    `  Content-Security-Policy: ${policy}`,
  ];
  const sandbox = own(SANDBOX_CONTENT_SECURITY_POLICY);
  const apps = own(MCP_APP_SANDBOX_CONTENT_SECURITY_POLICY);
  return `/*\n${lines.join('\n')}\n${base}${SANDBOX_DIRECTORY}*\n${sandbox.join('\n')}\n${base}${MCP_APP_DIRECTORY}*\n${apps.join('\n')}\n`;
}

/** The headers as an nginx snippet to `include` in the app's `server` or `location` block. */
export function nginxSnippet(headers: Readonly<Record<string, string>> = SECURITY_HEADERS): string {
  const lines = Object.entries(headers).map(([name, value]) => `add_header ${name} "${value}" always;`);
  return `# Security headers of MCP Agent (generated from src/domain/security-headers.ts; keep in step).\n${lines.join('\n')}\n`;
}
