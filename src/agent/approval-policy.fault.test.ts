import { describe, expect, it } from 'vitest';
import { decideApproval, definitionText, legacyDefinitionText } from './approval-policy';
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

describe('the definition an approval holds for: its app and annotations too (the red team’s “always allow”, then an app)', () => {
  const plain = tool();
  const withMeta = (extra: Partial<EffectiveTool['definition']>): EffectiveTool => ({
    ...plain,
    definition: { ...plain.definition, ...extra },
  });
  const before = JSON.stringify([
    'files',
    'write',
    'Write a file',
    { type: 'object' },
    'https://files.example',
    'none',
  ]);

  it('hashes a tool without an app or annotations as before, so its stored approvals still hold', () => {
    expect(definitionText(plain)).toBe(before);
    expect(legacyDefinitionText(plain)).toBe(before);
  });

  it('changes when the tool declares an app, a visibility or other annotations', () => {
    const texts = [
      definitionText(plain),
      definitionText(withMeta({ _meta: { ui: { resourceUri: 'ui://files/app.html' } } })),
      definitionText(withMeta({ _meta: { 'ui/resourceUri': 'ui://files/other.html' } })),
      definitionText(withMeta({ _meta: { ui: { resourceUri: 'ui://files/app.html', visibility: ['app'] } } })),
      definitionText(withMeta({ annotations: { readOnlyHint: true } })),
      definitionText(withMeta({ annotations: { readOnlyHint: false } })),
    ];
    expect(new Set(texts).size).toBe(texts.length);
    // Annotation keys listed in another order are the same tool.
    expect(definitionText(withMeta({ annotations: { readOnlyHint: true, title: 'W' } }))).toBe(
      definitionText(withMeta({ annotations: { title: 'W', readOnlyHint: true } })),
    );
  });

  it('lets an approval stored before hold by the older hash for a tool with annotations, never for one with an app', () => {
    const annotated = withMeta({ annotations: { readOnlyHint: true } });
    const old = { always: { 'files/write': approved('legacy') }, thread: {} };
    expect(decideApproval(annotated, 'new', old, 'legacy')).toEqual({ decision: 'allow', by: 'rule' });
    expect(legacyDefinitionText(withMeta({ _meta: { ui: { resourceUri: 'ui://files/app.html' } } }))).toBeUndefined();
    expect(decideApproval(annotated, 'new', old)).toEqual({ decision: 'ask' });
    // One stored with the full hash does not fall back to the older one.
    const full = {
      always: { 'files/write': { ...approved('legacy'), covers: 'app-and-annotations' as const } },
      thread: {},
    };
    expect(decideApproval(annotated, 'new', full, 'legacy')).toEqual({ decision: 'ask' });
  });
});
