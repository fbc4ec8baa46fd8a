import { describeError } from '../domain/errors';
import { serverUrlProblem } from '../domain/server-config';
import type { Registry } from '../mcp/registry';
import type { Storage } from '../storage/storage';

/** The relay as Settings shows it: the person's own URL, and the deployer's one it falls back to. */
export interface RelayView {
  readonly url: string;
  readonly appUrl?: string;
}

/** The relay URL in effect for a profile: its own, else the app config's. */
export function effectiveRelayUrl(own: string | undefined, appUrl: string | undefined): string | undefined {
  return own ?? appUrl;
}

/** Why a typed relay URL cannot be used (https, or plain http on this machine), or undefined. */
export function relayUrlProblem(url: string): string | undefined {
  const problem = serverUrlProblem(url);
  return problem
    ? `Relay URL ${problem.replace('tokens would travel in clear', 'tokens would travel through it in clear')}`
    : undefined;
}

/** Saves the person's relay URL (blank: use the app's) and puts it in effect; returns an error message or undefined. */
export async function saveRelayUrl(
  storage: Storage,
  registry: Registry,
  profileId: string,
  typed: string,
  appUrl: string | undefined,
): Promise<string | undefined> {
  const url = typed.trim();
  const problem = url ? relayUrlProblem(url) : undefined;
  if (problem) return problem;
  try {
    await storage.profiles.update(profileId, (p) => {
      const { relayUrl: _old, ...rest } = p.preferences;
      return { ...p, preferences: url ? { ...rest, relayUrl: url } : rest };
    });
  } catch (error) {
    return describeError(error);
  }
  await registry.setRelayUrl(effectiveRelayUrl(url || undefined, appUrl));
  return undefined;
}
