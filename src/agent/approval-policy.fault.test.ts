import { describe, expect, it } from 'vitest';
import { decideApproval } from './approval-policy';
import type { EffectiveTool, ToolAnnotations } from '../domain/tool';

const tool = (annotations?: ToolAnnotations): EffectiveTool => ({
  serverId: 'files',
  serverName: 'Files',
  trust: { origin: 'https://files.example', authKind: 'none' },
  toolName: 'write',
  modelName: 'mcp__files__write',
  description: 'Write a file',
  definition: { name: 'write', description: 'Write a file', inputSchema: { type: 'object' } },
  isFromTrustedServer: false,
  ...(annotations ? { annotations } : {}),
});
const none = { always: {}, thread: {} };
const approved = (hash: string, origin = 'https://files.example', authKind: 'none' | 'bearer' = 'none') => ({
  hash,
  origin,
  authKind,
});

describe('decideApproval', () => {
  it('asks by default', () => {
    expect(decideApproval(tool(), 'h1', none)).toEqual({ decision: 'ask' });
  });
  it("allows read-only tools of the deployer's servers by their annotation, and asks for a user-added server's", () => {
    expect(decideApproval({ ...tool({ readOnlyHint: true }), isFromTrustedServer: true }, 'h1', none)).toEqual({
      decision: 'allow',
      by: 'annotation',
    });
    expect(decideApproval(tool({ readOnlyHint: true }), 'h1', none)).toEqual({ decision: 'ask' });
  });
  it('allows what was allowed for this thread or always, for the same definition only', () => {
    expect(decideApproval(tool(), 'h1', { always: {}, thread: { 'files/write': approved('h1') } })).toEqual({
      decision: 'allow',
      by: 'rule',
    });
    expect(decideApproval(tool(), 'h2', { always: {}, thread: { 'files/write': approved('h1') } })).toEqual({
      decision: 'ask',
    });
    expect(decideApproval(tool(), 'h1', { always: { 'files/write': approved('h1') }, thread: {} })).toEqual({
      decision: 'allow',
      by: 'rule',
    });
  });
  it('asks for destructive tools even when allowed for the thread, unless always allowed', () => {
    const destructive = tool({ destructiveHint: true, readOnlyHint: true });
    expect(decideApproval(destructive, 'h1', { always: {}, thread: { 'files/write': approved('h1') } })).toEqual({
      decision: 'ask',
    });
    expect(decideApproval(destructive, 'h1', { always: { 'files/write': approved('h1') }, thread: {} })).toEqual({
      decision: 'allow',
      by: 'rule',
    });
  });
  it('asks again when the server now answers at another origin or authenticates another way, the id being the same', () => {
    const always = (stored: ReturnType<typeof approved>) => ({ always: { 'files/write': stored }, thread: {} });
    const thread = (stored: ReturnType<typeof approved>) => ({ always: {}, thread: { 'files/write': stored } });
    for (const stored of [approved('h1', 'https://evil.example'), approved('h1', 'https://files.example', 'bearer')]) {
      expect(decideApproval(tool(), 'h1', always(stored))).toEqual({ decision: 'ask' });
      expect(decideApproval(tool(), 'h1', thread(stored))).toEqual({ decision: 'ask' });
    }
  });
});
