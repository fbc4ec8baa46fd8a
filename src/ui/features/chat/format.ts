/** A count as the person's locale writes it (1,234). */
export const formatCount = (n: number): string => n.toLocaleString();

/** A duration in ms or s. */
export const formatDuration = (ms: number): string =>
  ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/** The server and tool of a model tool name `mcp__{server}__{tool}`. */
export function splitToolName(name: string): [string | undefined, string] {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match ? [match[1], match[2]!] : [undefined, name];
}
