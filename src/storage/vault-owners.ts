/**
 * Owners of the app's own secrets contain ":", which no server id can (ServerId allows letters, digits, "-"
 * and "_"), so removing a server can never clear them.
 */
export const MODEL_API_OWNER = 'app:anthropic';
/** Vault slot of the Anthropic API key (under MODEL_API_OWNER). */
export const API_KEY_SLOT = 'api-key';

export function isAppOwner(owner: string): boolean {
  return owner.includes(':');
}

/** Where the API key was kept before app owners had their own namespace (a name a server id could take). */
export const LEGACY_MODEL_KEY = { owner: 'anthropic', slot: 'api-key' } as const;

export function isLegacyModelKey(owner: string, slot: string): boolean {
  return owner === LEGACY_MODEL_KEY.owner && slot === LEGACY_MODEL_KEY.slot;
}
