import { describe, expect, it } from 'vitest';
import { FakeRegistry, toolDefinition } from '../../test/fakes/fake-registry';
import { ServerConfig } from './server-config';
import { effectiveTool } from './tool';

const config = ServerConfig.parse({ id: 'files', name: 'Files', url: 'https://files.example.test/mcp' });
const definition = toolDefinition('read', { annotations: { readOnlyHint: true } });

describe('effectiveTool', () => {
  it('is the tool as the model and the person see it: model name, server, description, trust', () => {
    const tool = effectiveTool({
      config,
      isAppServer: false,
      definition,
      override: undefined,
      modelName: 'mcp__f__read',
    });
    expect(tool).toMatchObject({
      serverId: 'files',
      toolName: 'read',
      modelName: 'mcp__f__read',
      serverName: 'Files',
      description: 'The read tool',
      trust: { origin: 'https://files.example.test', authKind: 'none' },
      isFromTrustedServer: false,
      annotations: { readOnlyHint: true },
    });
    expect(tool).not.toHaveProperty('isCallableFromCode');
    expect(tool).not.toHaveProperty('warning');
  });

  it('carries the override (description, not callable from code) and the schema warning', () => {
    const tool = effectiveTool({
      config,
      isAppServer: true,
      definition,
      override: { description: 'Mine', callableFromCode: false },
      modelName: 'mcp__f__read',
      warning: 'The input schema could not be compiled',
    });
    expect(tool).toMatchObject({
      description: 'Mine',
      isCallableFromCode: false,
      warning: 'The input schema could not be compiled',
      isFromTrustedServer: true,
    });
  });

  it('is nothing when switched off or without a model name', () => {
    const base = { config, isAppServer: false, definition, modelName: 'mcp__f__read' };
    expect(effectiveTool({ ...base, override: { enabled: false } })).toBeUndefined();
    expect(effectiveTool({ ...base, override: undefined, modelName: undefined })).toBeUndefined();
  });

  it('the fake registry builds its tools with it: a tool kept from code says so there too', async () => {
    const registry = new FakeRegistry();
    await registry.add({ ...config, toolOverrides: { read: { callableFromCode: false } } }, [definition]);
    expect(registry.tools()[0]).toMatchObject({ toolName: 'read', isCallableFromCode: false });
  });
});
