/** Whether a hostname names this machine: traffic to it never leaves the host the relay runs on. */
export function isLoopbackName(hostname: string): boolean {
  const host = bare(hostname);
  return host === 'localhost' || host.endsWith('.localhost');
}

/** Whether an IP literal (v4 or v6) is loopback, private, link-local, carrier-grade NAT, unspecified or multicast. */
export function isPrivateAddress(address: string): boolean {
  const host = bare(address);
  const v4 = parseV4(host);
  if (v4) return isPrivateV4(v4);
  if (!host.includes(':')) return false;
  const mapped =
    /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(host) ??
    /^::(\d{1,3}(?:\.\d{1,3}){3})$/.exec(host);
  const mappedV4 = mapped?.[1] ? parseV4(mapped[1]) : undefined;
  if (mappedV4) return isPrivateV4(mappedV4);
  const hextets = expandV6(host);
  if (!hextets) return true; // An address we cannot read is treated as unsafe.
  const [first = 0] = hextets;
  if (hextets.every((h) => h === 0)) return true; // ::
  if (hextets.slice(0, 7).every((h) => h === 0) && hextets[7] === 1) return true; // ::1
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) return true; // mapped, hex form
  // Forms that carry an IPv4 address a host may route to: IPv4-compatible (::a.b.c.d in hex), IPv4-translated
  // (::ffff:0:a.b.c.d, RFC 2765), NAT64 (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/48). The embedded address is judged
  // as itself.
  const embedded = (high = 0, low = 0) => isPrivateV4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (hextets.slice(0, 6).every((h) => h === 0)) return embedded(hextets[6], hextets[7]);
  if (hextets.slice(0, 4).every((h) => h === 0) && hextets[4] === 0xffff && hextets[5] === 0)
    return embedded(hextets[6], hextets[7]);
  // Local-use NAT64 (64:ff9b:1::/48, RFC 8215): translated inside the operator's own network, so never a public target.
  if (first === 0x64 && hextets[1] === 0xff9b && hextets[2] === 1) return true;
  if (first === 0x64 && hextets[1] === 0xff9b && hextets.slice(2, 6).every((h) => h === 0))
    return embedded(hextets[6], hextets[7]);
  if (first === 0x2002) return embedded(hextets[1], hextets[2]);
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/** Whether an IP string is a literal address (v4 or v6) rather than a DNS name. */
export function isIpLiteral(hostname: string): boolean {
  const host = bare(hostname);
  return parseV4(host) !== undefined || host.includes(':');
}

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

function parseV4(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

function isPrivateV4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast and reserved
  );
}

function expandV6(host: string): number[] | undefined {
  const zoneless = host.split('%')[0] ?? '';
  const halves = zoneless.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((h) => (/^[0-9a-f]{1,4}$/.test(h) ? parseInt(h, 16) : NaN));
  const head = parse(halves[0] ?? '');
  const tail = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return undefined;
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return all.some(Number.isNaN) ? undefined : all;
}
