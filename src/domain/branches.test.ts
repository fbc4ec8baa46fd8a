import { describe, expect, it } from 'vitest';
import { pathTo, selectBranch, type BranchNode } from './branches';

const node = (id: string, seq: number, parentId?: string | null): BranchNode =>
  parentId === undefined ? { id, seq } : { id, seq, parentId };
const ids = (nodes: readonly BranchNode[]) => nodes.map((n) => n.id);

// u1 → a1 → u2 → a2, then u2 edited (u2b → a2b), then a2b regenerated (a2c).
const tree = [
  node('u1', 0, null),
  node('a1', 1, 'u1'),
  node('u2', 2, 'a1'),
  node('a2', 3, 'u2'),
  node('u2b', 4, 'a1'),
  node('a2b', 5, 'u2b'),
  node('a2c', 6, 'u2b'),
];

describe('branches of a thread (issue #22)', () => {
  it('a thread stored before branches (no parentId) reads as one branch without versions', () => {
    const old = [node('u1', 0), node('a1', 1), node('u2', 2), node('a2', 3)];
    const branch = selectBranch(old);
    expect(ids(branch.path)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(branch.versions.size).toBe(0);
    expect(branch.offPath).toEqual([]);
  });

  it('without a chosen leaf shows the branch of the newest message, with each fork point’s versions', () => {
    const branch = selectBranch(tree);
    expect(ids(branch.path)).toEqual(['u1', 'a1', 'u2b', 'a2c']);
    expect(branch.versions.get('u2b')).toEqual(['u2', 'u2b']);
    expect(branch.versions.get('a2c')).toEqual(['a2b', 'a2c']);
    expect(branch.versions.has('u1')).toBe(false);
    expect(ids(branch.offPath)).toEqual(['u2', 'a2', 'a2b']);
  });

  it('through an earlier version goes down that version’s newest messages', () => {
    expect(ids(selectBranch(tree, 'u2').path)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(ids(selectBranch(tree, 'a2b').path)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    // A message in the middle: the branch goes on past it.
    expect(ids(selectBranch(tree, 'a1').path)).toEqual(['u1', 'a1', 'u2b', 'a2c']);
  });

  it('an edited first message makes two roots, each a version of the other', () => {
    const roots = [node('u1', 0, null), node('a1', 1, 'u1'), node('u1b', 2, null), node('a1b', 3, 'u1b')];
    const branch = selectBranch(roots, 'u1');
    expect(ids(branch.path)).toEqual(['u1', 'a1']);
    expect(branch.versions.get('u1')).toEqual(['u1', 'u1b']);
  });

  it('a leaf that is gone falls back to the newest message; a parent that is gone starts the branch there', () => {
    expect(ids(selectBranch(tree, 'missing').path)).toEqual(['u1', 'a1', 'u2b', 'a2c']);
    const orphan = [node('u1', 0, null), node('a9', 5, 'gone'), node('u9', 6, 'a9')];
    expect(ids(selectBranch(orphan).path)).toEqual(['a9', 'u9']);
  });

  it('pathTo stops exactly at the message (the history a regenerated answer reads)', () => {
    expect(ids(pathTo(tree, 'u2b'))).toEqual(['u1', 'a1', 'u2b']);
    expect(pathTo(tree, 'missing')).toEqual([]);
  });

  it('a cycle of hand-edited records ends the walk instead of hanging', () => {
    const cycle = [node('x', 0, 'y'), node('y', 1, 'x')];
    expect(selectBranch(cycle).path.length).toBeLessThanOrEqual(2);
  });
});
