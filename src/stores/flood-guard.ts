/** How many messages (logs, progress) one server may send in a window before the app stops showing them for a while. */
export const FLOOD_LIMIT = 1_000;
export const FLOOD_WINDOW_MS = 10_000;
/** How long a flooding server's messages are held back (its latest show again after). */
export const FLOOD_HOLD_MS = 10_000;
/** While held back, the latest of its messages shows at most this often. */
export const HELD_REFRESH_MS = 1_000;

/**
 * Counts each server's messages; past the limit in a window they are held back for a while: shown at most once a
 * second (HELD_REFRESH_MS), the latest only, instead of once a frame.
 */
export interface FloodGuard {
  /** Counts one message of the server; false while its messages are held back. */
  admit(serverId: string): boolean;
}

export interface FloodGuardOptions {
  readonly now: () => number;
  /** Told once per hold, as it begins (the server's log says so). */
  readonly onFlood: (serverId: string) => void;
  readonly limit?: number;
  readonly windowMs?: number;
  readonly holdMs?: number;
}

/** A guard counting per server in fixed windows. */
export function createFloodGuard({
  now,
  onFlood,
  limit = FLOOD_LIMIT,
  windowMs = FLOOD_WINDOW_MS,
  holdMs = FLOOD_HOLD_MS,
}: FloodGuardOptions): FloodGuard {
  const counts = new Map<string, { start: number; count: number; heldUntil: number }>();
  const noted = new Set<string>();
  return {
    admit(serverId) {
      const at = now();
      const entry = counts.get(serverId) ?? { start: at, count: 0, heldUntil: 0 };
      counts.set(serverId, entry);
      if (at < entry.heldUntil) return false;
      if (at - entry.start >= windowMs) Object.assign(entry, { start: at, count: 0 });
      if (++entry.count <= limit) return true;
      // Held back; then judged again on what it sends after the hold.
      Object.assign(entry, { heldUntil: at + holdMs, start: at + holdMs, count: 0 });
      // One note per server and page: a server flooding on and off does not fill its log with notes.
      if (!noted.has(serverId)) {
        noted.add(serverId);
        onFlood(serverId);
      }
      return false;
    },
  };
}

/** The note a held-back server's log shows. */
export function floodNote(serverName: string): string {
  return (
    `${serverName} is sending too many messages (more than ${FLOOD_LIMIT.toLocaleString('en-US')} in ` +
    `${FLOOD_WINDOW_MS / 1000} s); showing the latest once a second.`
  );
}
