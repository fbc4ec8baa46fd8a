import { parseDirectoryPage, type DirectoryPage } from '../domain/directory-entry';
import { AppError } from '../domain/errors';

/** At most this much of a registry's answer is read: a page of 100 entries is far below it. */
export const DIRECTORY_MAX_BYTES = 2_000_000;
/** A registry that has not answered by then is reported as not answering. */
export const DIRECTORY_TIMEOUT_MS = 15_000;

/** Why a directory search failed; `reason` is what code switches on, the message what the person reads. */
export class DirectoryError extends AppError {
  readonly kind = 'directory';
  constructor(
    readonly reason: 'unreachable' | 'timeout' | 'status' | 'not-json' | 'too-large' | 'not-a-registry',
    message: string,
  ) {
    super(message);
    this.name = 'DirectoryError';
  }
}

export interface ServerDirectory {
  /** One page of servers matching `query` (all when empty); `cursor` continues a previous page. Never resolves late. */
  search(query: string, cursor: string | undefined, signal: AbortSignal): Promise<DirectoryPage>;
}

export interface ServerDirectoryDeps {
  readonly fetch: typeof fetch;
  /** The registry's base URL, e.g. https://registry.example.com (the API's `/v0/servers` is added). */
  readonly endpoint: string;
  readonly timeoutMs?: number;
}

/** The servers endpoint of a registry base URL (a base that already ends in /v0/servers or /v0.1/servers is kept). */
export function serversUrl(endpoint: string): URL {
  const url = new URL(endpoint);
  if (!/\/v0(\.\d+)?\/servers\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, '')}/v0/servers`;
  return url;
}

async function readCapped(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > DIRECTORY_MAX_BYTES) throw tooLarge();
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > DIRECTORY_MAX_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

const tooLarge = () =>
  new DirectoryError(
    'too-large',
    `The registry's answer is larger than ${DIRECTORY_MAX_BYTES / 1_000_000} MB; it was not read.`,
  );

/** A client of an MCP registry (the official Registry API): search with cursor paging, answers validated and capped. */
export function createServerDirectory(deps: ServerDirectoryDeps): ServerDirectory {
  return {
    async search(query, cursor, signal) {
      const url = serversUrl(deps.endpoint);
      if (query.trim()) url.searchParams.set('search', query.trim());
      if (cursor) url.searchParams.set('cursor', cursor);
      url.searchParams.set('limit', '30');
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), deps.timeoutMs ?? DIRECTORY_TIMEOUT_MS);
      const both = AbortSignal.any([signal, timeout.signal]);
      try {
        let response: Response;
        try {
          response = await deps.fetch(url, { signal: both, headers: { accept: 'application/json' } });
        } catch (error) {
          if (signal.aborted) throw error;
          if (timeout.signal.aborted)
            throw new DirectoryError('timeout', `The registry at ${url.origin} did not answer in time.`);
          throw new DirectoryError(
            'unreachable',
            `The registry at ${url.origin} cannot be reached (it is down, or does not allow this site to read it).`,
          );
        }
        if (!response.ok)
          throw new DirectoryError('status', `The registry at ${url.origin} answered HTTP ${response.status}.`);
        const text = await readCapped(response);
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw new DirectoryError(
            'not-json',
            `The registry at ${url.origin} did not answer with JSON; is it a registry?`,
          );
        }
        try {
          return parseDirectoryPage(json);
        } catch (error) {
          throw new DirectoryError('not-a-registry', `${url.origin}: ${(error as Error).message}`);
        }
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (timeout.signal.aborted && !(error instanceof DirectoryError))
          throw new DirectoryError('timeout', `The registry at ${url.origin} did not answer in time.`);
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
