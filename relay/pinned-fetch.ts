import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { isPrivateAddress } from './private-address';
import { PrivateConnectError } from './target-check';

/** Every address of a name, in the order the connection would try them. */
export type LookupAll = (hostname: string) => Promise<readonly LookupAddress[]>;

export const lookupAll: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * fetch (Node's own, undici) whose every connection is checked where it is made: the name is looked up for the
 * connection and the socket opened to the addresses that were checked. A name cannot answer a public address to the
 * relay's check and a private one to the connection (DNS rebinding). IP literals are not looked up (the check reads
 * them as they are).
 */
export function pinnedFetch(options: { readonly allowPrivateTargets: boolean; readonly lookup?: LookupAll }) {
  const resolve = options.lookup ?? lookupAll;
  const lookup: LookupFunction = (hostname, opts, callback) => {
    resolve(hostname).then(
      (answers) => {
        const family = opts.family === 4 || opts.family === 6 ? opts.family : undefined;
        const usable = answers.filter((a) => family === undefined || a.family === family);
        const inside = options.allowPrivateTargets ? undefined : usable.find((a) => isPrivateAddress(a.address));
        const first = usable[0];
        if (inside)
          callback(
            new PrivateConnectError(
              `the target ${hostname} resolves to the loopback or private address ${inside.address} (start the relay with --allow-private-targets to allow it)`,
            ),
            '',
          );
        else if (!first) callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        else if (opts.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
  const dispatcher = new Agent({ connect: { lookup } });
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as typeof fetch;
}
