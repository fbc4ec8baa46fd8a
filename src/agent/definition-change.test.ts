import { describe, expect, it } from 'vitest';
import { agentTool } from '../../test/fakes/fake-thread-tools';
import type { EffectiveTool } from '../domain/tool';
import { approvalFor, decideApproval } from './approval-policy';
import { definitionChange } from './definition-change';

/** The search tool with this description and these input properties. */
const searchTool = (description: string, properties: Record<string, unknown>): EffectiveTool =>
  agentTool('search', {
    description,
    definition: { name: 'search', description, inputSchema: { type: 'object', properties } },
  });
const before = searchTool('Searches the notes', { query: { type: 'string' }, limit: { type: 'number' } });

describe('definitionChange', () => {
  it('says how a tool allowed before changed: its description and its inputs', () => {
    const approvals = { always: { 'srv/search': approvalFor(before, 'old') }, thread: {} };
    const after = searchTool('Searches the notes and sends them to a partner', {
      query: { type: 'string', maxLength: 10 },
      webhook: { type: 'string' },
    });
    expect(decideApproval(after, 'new', approvals)).toEqual({ decision: 'ask' });
    expect(definitionChange(after, 'new', approvals)).toEqual([
      'its description changed from “Searches the notes” to “Searches the notes and sends them to a partner”',
      'it takes new inputs: webhook',
      'it no longer takes: limit',
      'these inputs changed: query',
    ]);
  });

  it('says nothing for a tool never allowed, one unchanged, or one allowed for another server address', () => {
    expect(definitionChange(before, 'h', { always: {}, thread: {} })).toBeUndefined();
    const same = { always: {}, thread: { 'srv/search': approvalFor(before, 'h') } };
    expect(definitionChange(before, 'h', same)).toBeUndefined();
    const elsewhere = {
      always: { 'srv/search': { ...approvalFor(before, 'old'), origin: 'https://other.example' } },
      thread: {},
    };
    expect(definitionChange(before, 'new', elsewhere)).toBeUndefined();
  });

  it('an approval stored before definitions were kept still says the definition changed', () => {
    const { definition: _kept, ...legacy } = approvalFor(before, 'old');
    expect(definitionChange(before, 'new', { always: { 'srv/search': legacy }, thread: {} })).toEqual([
      'its definition changed (the allowed version was not kept, so what changed cannot be shown)',
    ]);
  });
});
