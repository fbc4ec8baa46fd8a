/**
 * Branches of a thread (issue #22). Each message names the message it follows (`parentId`; null for a thread's first
 * message); editing a message or regenerating an answer adds a sibling, so a thread is a tree. The thread shows, and
 * the model reads, one path from a root to a leaf: the branch. A record without `parentId` (written before branches
 * existed) follows the message stored before it, so an old thread reads as a single branch.
 */

/** What the branch model reads of a stored message: its id, its order in the thread and whom it follows. */
export interface BranchNode {
  readonly id: string;
  readonly seq: number;
  readonly parentId?: string | null | undefined;
}

/** One branch of a thread: its messages from the first on, and where it could go another way. */
export interface Branch<T extends BranchNode> {
  /** The branch's messages, first to last. */
  readonly path: T[];
  /** For each message of the path that has other versions: every version's id, oldest first (itself included). */
  readonly versions: ReadonlyMap<string, readonly string[]>;
  /** The messages of the thread that are not on this branch. */
  readonly offPath: T[];
}

const ROOT = '';

/** Each message's children (oldest first) by parent id ('' for the roots); `nodes` in seq order. */
export function childrenOf<T extends BranchNode>(nodes: readonly T[]): Map<string, T[]> {
  const children = new Map<string, T[]>();
  let previous: T | undefined;
  for (const node of nodes) {
    const parent = node.parentId === undefined ? (previous?.id ?? ROOT) : (node.parentId ?? ROOT);
    const list = children.get(parent);
    if (list) list.push(node);
    else children.set(parent, [node]);
    previous = node;
  }
  return children;
}

/**
 * The branch that runs through `throughId`: its ancestors, itself, then on down through the newest message at each
 * step. Without `throughId`, or when it is gone, the branch of the newest message. `nodes` in seq order.
 */
export function selectBranch<T extends BranchNode>(nodes: readonly T[], throughId?: string): Branch<T> {
  if (nodes.length === 0) return { path: [], versions: new Map(), offPath: [] };
  const children = childrenOf(nodes);
  const byId = new Map<string, T>();
  const parentOf = new Map<string, string>();
  for (const [parent, list] of children)
    for (const node of list) {
      byId.set(node.id, node);
      parentOf.set(node.id, parent);
    }
  let at = (throughId !== undefined ? byId.get(throughId) : undefined) ?? nodes[nodes.length - 1]!;
  const path: T[] = [];
  // Up to the root; a cycle (a hand-edited record) ends the walk instead of looping.
  const seen = new Set<string>();
  for (let node: T | undefined = at; node && !seen.has(node.id); node = byId.get(parentOf.get(node.id) ?? ROOT)) {
    seen.add(node.id);
    path.push(node);
  }
  path.reverse();
  for (let next = children.get(at.id)?.at(-1); next && !seen.has(next.id); next = children.get(at.id)?.at(-1)) {
    seen.add(next.id);
    path.push(next);
    at = next;
  }
  const versions = new Map<string, readonly string[]>();
  for (const node of path) {
    const siblings = children.get(parentOf.get(node.id) ?? ROOT) ?? [];
    if (siblings.length > 1)
      versions.set(
        node.id,
        siblings.map((s) => s.id),
      );
  }
  const offPath = seen.size === nodes.length ? [] : nodes.filter((n) => !seen.has(n.id));
  return { path, versions, offPath };
}

/** The path from the first message to `leafId` exactly (nothing after it); empty when it is not stored. */
export function pathTo<T extends BranchNode>(nodes: readonly T[], leafId: string): T[] {
  const branch = selectBranch(nodes, leafId);
  const end = branch.path.findIndex((n) => n.id === leafId);
  return end < 0 ? [] : branch.path.slice(0, end + 1);
}

/** The id a new message follows when it goes after the branch's last message. */
export const tipOf = (path: readonly BranchNode[]): string | null => path.at(-1)?.id ?? null;

/** A message the person wrote (tool results travel in user messages too, without text). */
export const isPersonMessage = (message: {
  readonly role: string;
  readonly blocks: readonly { readonly type: string }[];
}): boolean => message.role === 'user' && message.blocks.some((b) => b.type === 'text');
