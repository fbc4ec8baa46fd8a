/**
 * The page's Content-Security-Policy as a `<meta>` tag can carry it: scripts and styles only from this origin (no
 * inline script, no eval: the MCP SDK gets a validator that compiles no code), images from here or data: URLs (tool
 * images), audio from data: URLs (tool audio), connections to https anywhere (the model API, MCP and OAuth servers) and to plain-http servers on
 * localhost or 127.0.0.1 (Chrome accepts no IPv6 literal in CSP; server-config.ts refuses other plain-http hosts).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "font-src 'self'",
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

/**
 * The development server's headers: its page needs inline scripts for hot reload, so its CSP says only what cannot be
 * said in the page; the others are as deployed.
 */
export const DEV_SERVER_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': FRAME_ANCESTORS,
};

/** The headers as a `_headers` file (Netlify, Cloudflare Pages): every path gets them. */
export function headersFile(headers: Readonly<Record<string, string>> = SECURITY_HEADERS): string {
  const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
  return `/*\n${lines.join('\n')}\n`;
}

/** The headers as an nginx snippet to `include` in the app's `server` or `location` block. */
export function nginxSnippet(headers: Readonly<Record<string, string>> = SECURITY_HEADERS): string {
  const lines = Object.entries(headers).map(([name, value]) => `add_header ${name} "${value}" always;`);
  return `# Security headers of MCP Agent (generated from src/domain/security-headers.ts; keep in step).\n${lines.join('\n')}\n`;
}
