import { describe, expect, it } from 'vitest';
import { decideApproval } from './approval-policy';
import type { AgentTool } from './ports';

const tool = (annotations?: AgentTool['annotations']): AgentTool => ({
  serverId: 'files',
  serverName: 'Files',
  toolName: 'write',
  modelName: 'mcp__files__write',
  description: 'Write a file',
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
});
const none = { always: {}, thread: {} };

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
    expect(decideApproval(tool(), 'h1', { always: {}, thread: { 'files/write': 'h1' } })).toEqual({
      decision: 'allow',
      by: 'rule',
    });
    expect(decideApproval(tool(), 'h2', { always: {}, thread: { 'files/write': 'h1' } })).toEqual({ decision: 'ask' });
    expect(decideApproval(tool(), 'h1', { always: { 'files/write': 'h1' }, thread: {} })).toEqual({
      decision: 'allow',
      by: 'rule',
    });
  });
  it('asks for destructive tools even when allowed for the thread, unless always allowed', () => {
    const destructive = tool({ destructiveHint: true, readOnlyHint: true });
    expect(decideApproval(destructive, 'h1', { always: {}, thread: { 'files/write': 'h1' } })).toEqual({
      decision: 'ask',
    });
    expect(decideApproval(destructive, 'h1', { always: { 'files/write': 'h1' }, thread: {} })).toEqual({
      decision: 'allow',
      by: 'rule',
    });
  });
});
