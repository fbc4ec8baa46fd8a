// The secrets of imported servers: header values a file gave literally go to the vault (never into the config), and
// what each imported server still needs (a token, header values, a sign-in) is asked for and stored here.
import type { ImportPlan, ImportProblem } from '../domain/config-import';
import { describeError, assertNever } from '../domain/errors';
import { BEARER_SLOT, headerSlot, headerValueProblem, type ServerConfig } from '../domain/server-config';
import type { ConfigTransferDeps } from './config-transfer';

/** An imported server that cannot work until the person gives it a secret or signs in. */
export type NeedsSecret =
  | { readonly serverId: string; readonly serverName: string; readonly kind: 'bearer' }
  | {
      readonly serverId: string;
      readonly serverName: string;
      readonly kind: 'headers';
      readonly headerNames: readonly string[];
    }
  | { readonly serverId: string; readonly serverName: string; readonly kind: 'oauth' };

/**
 * Writes the header values an `mcpServers` file gave literally to the vault (never into the config) and reports it;
 * returns the slots stored, by file server id.
 */
export async function storeLiteralSecrets(
  deps: ConfigTransferDeps,
  plan: ImportPlan,
  idMap: ReadonlyMap<string, string>,
  imported: string[],
  rejected: ImportProblem[],
): Promise<Map<string, Set<string>>> {
  const stored = new Map<string, Set<string>>();
  for (const [fileId, slots] of Object.entries(plan.secrets ?? {})) {
    const id = idMap.get(fileId);
    const server = plan.servers.find((s) => s.id === fileId);
    if (!id || !server) continue;
    try {
      for (const [slot, value] of Object.entries(slots))
        await deps.storage.vault.put({ profileId: deps.profileId, owner: id, slot }, value);
      stored.set(fileId, new Set(Object.keys(slots)));
      imported.push(`Server "${server.name}": its credentials from the file are stored encrypted in the vault`);
    } catch (error) {
      rejected.push({ subject: `Credentials of server "${server.name}"`, reasons: [describeError(error)] });
    }
  }
  return stored;
}

/** What an imported server still needs before it can connect (none for the slots already stored). */
export function secretNeed(
  server: ServerConfig,
  serverId: string,
  stored: ReadonlySet<string> = new Set(),
): NeedsSecret[] {
  const base = { serverId, serverName: server.name };
  switch (server.auth.kind) {
    case 'none':
      return [];
    case 'bearer':
      return stored.has(BEARER_SLOT) ? [] : [{ ...base, kind: 'bearer' }];
    case 'headers': {
      const missing = server.auth.headerNames.filter((name) => !stored.has(headerSlot(name)));
      return missing.length > 0 ? [{ ...base, kind: 'headers', headerNames: missing }] : [];
    }
    case 'oauth':
      return [{ ...base, kind: 'oauth' }];
    default:
      return assertNever(server.auth);
  }
}

/** The outcome of giving an imported server its secret. */
export interface SecretOutcome {
  readonly isStored: boolean;
  readonly isConnected: boolean;
  readonly text: string;
}

/** Stores a secret an imported server needs (vault only), then connects the server with it. */
export async function storeServerSecret(
  deps: ConfigTransferDeps,
  serverId: string,
  secret: { readonly headerName?: string; readonly value: string },
): Promise<SecretOutcome> {
  const value = secret.value.trim();
  if (!value) return { isStored: false, isConnected: false, text: 'Enter a value first.' };
  // Checked as the servers form checks it: fetch would refuse the value, and the connection error would not say why.
  const problem = headerValueProblem(value);
  if (problem)
    return {
      isStored: false,
      isConnected: false,
      text: `${secret.headerName ? `${secret.headerName} value` : 'Bearer token'} ${problem}`,
    };
  if (!deps.registry.get(serverId))
    return { isStored: false, isConnected: false, text: 'That server no longer exists.' };
  try {
    await deps.storage.vault.put(
      {
        profileId: deps.profileId,
        owner: serverId,
        slot: secret.headerName ? headerSlot(secret.headerName) : BEARER_SLOT,
      },
      value,
    );
    await deps.registry.disconnect(serverId); // A connection opened before reads the secret only when it connects again.
    const state = await deps.registry.connect(serverId);
    return state.status === 'connected'
      ? { isStored: true, isConnected: true, text: 'Stored; the server is connected.' }
      : {
          isStored: true,
          isConnected: false,
          text: `Stored, but the server did not connect: ${state.lastError?.message ?? state.status}`,
        };
  } catch (error) {
    return { isStored: false, isConnected: false, text: describeError(error) };
  }
}
