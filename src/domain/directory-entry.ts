// Entries of an MCP server registry (the official MCP Registry API, `GET /v0/servers`), read as untrusted input: each
// entry is validated on its own, so one malformed entry is skipped with its reason and the rest still show.
// Shape: https://github.com/modelcontextprotocol/registry/blob/main/docs/reference/api/generic-registry-api.md and
// its openapi.yaml (`servers[].server` with `remotes[]` of type streamable-http or sse, `packages[]`, and
// `metadata.nextCursor`, `next_cursor` in older versions of the API).
import { z } from 'zod';
import { serverUrlProblem } from './server-config';

/** What the directory shows at most, so a registry cannot flood the page. */
export const DIRECTORY_LIMITS = {
  entriesPerPage: 100,
  nameChars: 200,
  descriptionChars: 500,
  remotesPerEntry: 10,
  headersPerRemote: 10,
} as const;

/** A header a remote server declares (an API key, a tenant id): the person fills it in the server form. */
export interface DirectoryHeader {
  readonly name: string;
  readonly description: string;
  readonly isRequired: boolean;
  readonly isSecret: boolean;
}

/** A way to reach the server over the network. */
export interface DirectoryRemote {
  readonly transport: 'http' | 'sse';
  readonly url: string;
  readonly headers: readonly DirectoryHeader[];
}

/** One server of the directory, as the list shows it. */
export interface DirectoryEntry {
  /** The registry's reverse-DNS name, e.g. `io.github.someone/weather`. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly version: string;
  /** The namespace of the name (`io.github.someone`): who published it. */
  readonly publisher: string;
  /** Remotes this app can connect to (streamable HTTP first). */
  readonly remotes: readonly DirectoryRemote[];
  /** Packages that need a local process (npm, PyPI, OCI …), named only: a browser cannot start them. */
  readonly packages: readonly string[];
}

/** An entry left out of the list, with why. */
export interface SkippedEntry {
  readonly name: string;
  readonly reason: string;
}

export interface DirectoryPage {
  readonly entries: readonly DirectoryEntry[];
  readonly skipped: readonly SkippedEntry[];
  readonly nextCursor?: string;
}

const cut = (max: number) => (text: string) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** Control and bidirectional-override characters a hostile entry could use to disguise itself. */
const stripControls = (text: string) => text.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, ' ');
const Text = (max: number) => z.string().transform(stripControls).transform(cut(max));

const Header = z.object({
  name: z.string().min(1).max(200),
  description: Text(300).optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
});

const Remote = z.object({
  type: z.string(),
  url: z.string(),
  headers: z.array(Header).max(DIRECTORY_LIMITS.headersPerRemote).optional(),
});

const Server = z.object({
  name: z.string().min(1).max(DIRECTORY_LIMITS.nameChars),
  title: Text(DIRECTORY_LIMITS.nameChars).optional(),
  description: Text(DIRECTORY_LIMITS.descriptionChars).optional(),
  version: Text(64).optional(),
  remotes: z.array(Remote).max(DIRECTORY_LIMITS.remotesPerEntry).optional(),
  packages: z.array(z.object({ registryType: z.string().optional(), identifier: z.string().optional() })).optional(),
});

const Page = z.object({
  servers: z.array(z.unknown()),
  metadata: z.object({ nextCursor: z.string().optional(), next_cursor: z.string().optional() }).partial().optional(),
});

const TRANSPORTS: Record<string, DirectoryRemote['transport']> = { 'streamable-http': 'http', sse: 'sse' };

/** The remotes of a server the app can use, or why none. */
function usableRemotes(remotes: z.infer<typeof Remote>[]): DirectoryRemote[] | string {
  const usable: DirectoryRemote[] = [];
  const problems: string[] = [];
  for (const remote of remotes) {
    const transport = TRANSPORTS[remote.type];
    if (!transport) {
      problems.push(`transport "${cut(40)(remote.type)}" is not one a browser can use`);
      continue;
    }
    const problem = serverUrlProblem(remote.url);
    if (problem) {
      problems.push(`its URL ${problem}`);
      continue;
    }
    usable.push({
      transport,
      url: remote.url,
      headers: (remote.headers ?? []).map((h) => ({
        name: h.name,
        description: h.description ?? '',
        isRequired: h.isRequired ?? false,
        isSecret: h.isSecret ?? false,
      })),
    });
  }
  usable.sort((a, b) => (a.transport === b.transport ? 0 : a.transport === 'http' ? -1 : 1));
  return usable.length > 0 || problems.length === 0 ? usable : problems.join('; ');
}

/** Reads one page of a registry's answer; throws a message when the page itself is not a registry answer. */
export function parseDirectoryPage(json: unknown): DirectoryPage {
  const page = Page.safeParse(json);
  if (!page.success) throw new Error('The answer is not a server registry page (no "servers" list).');
  const entries: DirectoryEntry[] = [];
  const skipped: SkippedEntry[] = [];
  const listed = page.data.servers.slice(0, DIRECTORY_LIMITS.entriesPerPage);
  for (const [i, item] of listed.entries()) {
    // Current API: { server, _meta }; the first preview versions listed the server object itself.
    const raw = typeof item === 'object' && item !== null && 'server' in item ? item.server : item;
    const parsed = Server.safeParse(raw);
    const rawName = typeof (raw as { name?: unknown } | null)?.name === 'string' ? (raw as { name: string }).name : '';
    const name = stripControls(cut(DIRECTORY_LIMITS.nameChars)(rawName)) || `entry ${i + 1}`;
    if (!parsed.success) {
      skipped.push({ name, reason: `malformed entry (${parsed.error.issues[0]?.path.join('.') || 'entry'})` });
      continue;
    }
    const server = parsed.data;
    const remotes = usableRemotes(server.remotes ?? []);
    if (typeof remotes === 'string') {
      skipped.push({ name, reason: remotes });
      continue;
    }
    const packages = (server.packages ?? []).map((p) =>
      cut(120)(stripControls([p.registryType, p.identifier].filter(Boolean).join(' '))),
    );
    entries.push({
      name: stripControls(server.name),
      title: server.title || server.name.split('/').pop() || server.name,
      description: server.description ?? '',
      version: server.version ?? '',
      publisher: stripControls(server.name.includes('/') ? server.name.slice(0, server.name.lastIndexOf('/')) : ''),
      remotes,
      packages,
    });
  }
  const overflow = page.data.servers.length - listed.length;
  if (overflow > 0)
    skipped.push({
      name: `${overflow} more`,
      reason: `a page shows at most ${DIRECTORY_LIMITS.entriesPerPage} servers`,
    });
  const cursor = page.data.metadata?.nextCursor ?? page.data.metadata?.next_cursor;
  return { entries, skipped, ...(cursor ? { nextCursor: cursor } : {}) };
}
