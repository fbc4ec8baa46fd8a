import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/domain/logger';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';
import { createTestRegistry } from '../../fakes/test-registry';

// How a server's tools/list is taken in when some of it is wrong: each tool on its own, with a note for what is left out.

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function testServer(options?: Parameters<typeof startTestMcpServer>[0]) {
  const server = await startTestMcpServer(options);
  cleanup.push(() => server.stop());
  return server;
}
function setup(overrides?: Parameters<typeof createTestRegistry>[0]) {
  const test = createTestRegistry(overrides);
  cleanup.push(() => test.registry.close());
  return test;
}
const textOf = (result: { content: readonly { type: string; text?: string }[] }) =>
  result.content.map((c) => c.text ?? '').join('');

describe('tool intake', () => {
  it('leaves out only the tools whose definition the SDK rejects, with a note naming each, and calls the rest', async () => {
    const server = await testServer({
      pageSize: 2,
      rawTools: [
        { name: 'bad-properties', inputSchema: { type: 'object', properties: 5 } },
        { name: 'no-object', inputSchema: { properties: {} } },
      ],
    });
    const { registry } = setup();
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    expect(await registry.connect('mine')).toMatchObject({ status: 'connected' });
    const names = registry.tools(['mine']).map((t) => t.toolName);
    expect(names).toEqual(expect.arrayContaining(['add', 'slow']));
    expect(names).not.toContain('bad-properties');
    expect(names).not.toContain('no-object');
    const cuts = registry.get('mine')?.catalog?.cuts ?? [];
    expect(cuts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^bad-properties: left out: .*inputSchema\.properties/),
        expect.stringMatching(/^no-object: left out: .*inputSchema\.type/),
      ]),
    );
    const result = await registry.callTool('mine', 'add', { a: 2, b: 3 });
    expect(result.failure).toBeUndefined();
    expect(textOf(result)).toBe('2+3=5');
  });

  it('stays connected with the tools listed before when a re-list fails once, with a warning in its log', async () => {
    let isFailing = false;
    const server = await testServer({
      configure: {
        capabilities: {},
        setup: (s) =>
          s.setRequestHandler(ListToolsRequestSchema, () => {
            if (isFailing) throw new Error('the tool database is down');
            return { tools: [{ name: 'first', inputSchema: { type: 'object' } }] };
          }),
      },
    });
    const logged: string[] = [];
    const logger: Logger = { warn: (message) => void logged.push(message), debug: () => undefined };
    const { registry } = setup({ logger });
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    await registry.connect('mine');
    await expect.poll(() => server.openStreams).toBeGreaterThan(0);
    isFailing = true;
    server.addTool('second', 'Triggers tools/list_changed');
    const warnings = () => registry.logs('mine').filter((entry) => entry.level === 'warning');
    await expect.poll(() => warnings().length).toBe(1);
    expect(warnings()[0]?.text).toMatch(
      /Listing its tools failed, so the tools listed before are kept.*the tool database is down/,
    );
    expect(logged.some((m) => m.includes('Listing tools failed'))).toBe(true);
    expect(registry.get('mine')?.state).toMatchObject({ status: 'connected' });
    expect(registry.tools(['mine']).map((t) => t.toolName)).toEqual(['first']);
    // "Check again" that fails the same way: still connected, one more warning.
    expect(await registry.checkAgain('mine')).toMatchObject({ status: 'connected' });
    expect(warnings()).toHaveLength(2);
    expect((await registry.callTool('mine', 'first', {})).failure).toBeUndefined();
  });

  it('shows a re-list that finds the session gone as the server’s error, as before', async () => {
    const server = await testServer();
    const { registry } = setup();
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    await registry.connect('mine');
    server.expireSessions();
    await expect.poll(() => server.sessions).toBe(0);
    expect(await registry.checkAgain('mine')).toMatchObject({ status: 'error' });
    expect(await registry.connect('mine')).toMatchObject({ status: 'connected' });
  });
});

describe('tool names', () => {
  it('notes the tools left out for a duplicate or an empty name, instead of dropping them silently', async () => {
    const server = await testServer({
      rawTools: [
        { name: 'add', description: 'A second add', inputSchema: { type: 'object' } },
        { name: 'add', description: 'A third add', inputSchema: { type: 'object' } },
        { name: '', description: 'No name', inputSchema: { type: 'object' } },
      ],
    });
    const { registry } = setup();
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    expect(await registry.connect('mine')).toMatchObject({ status: 'connected' });
    const tools = registry.tools(['mine']);
    expect(tools.filter((t) => t.toolName === 'add')).toHaveLength(1);
    expect(tools.find((t) => t.toolName === 'add')?.description).toBe('Adds a and b');
    expect(registry.get('mine')?.catalog?.cuts).toEqual(
      expect.arrayContaining([
        'add: 2 more tools of this name left out (the first listed is kept)',
        '(a tool with an empty name): left out: a tool needs a name to be called',
      ]),
    );
  });
});

describe('input schemas that are not valid JSON Schema', () => {
  it('keeps the tool callable, its arguments checked by the server alone, with a warning naming the problem', async () => {
    const server = await testServer({
      extraTools: [
        {
          tool: {
            name: 'echo',
            inputSchema: { type: 'object', properties: { message: { type: 'strng' } }, required: ['message'] },
          },
          run: async (args) => ({ content: [{ type: 'text', text: `echo: ${String(args.message)}` }] }),
        },
      ],
    });
    const { registry } = setup();
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    await registry.connect('mine');
    const warning = registry.tools(['mine']).find((t) => t.toolName === 'echo')?.warning;
    expect(warning).toMatch(
      /"echo" cannot be compiled \(properties\.message\.type: "strng" is not a JSON Schema type\)/,
    );
    expect(registry.toolWarnings('mine')).toContain(warning);
    const result = await registry.callTool('mine', 'echo', { message: 'hi' });
    expect(result.failure).toBeUndefined();
    expect(textOf(result)).toBe('echo: hi');
  });
});

describe('argument errors', () => {
  it('name each problem the model must fix, not only the deepest', async () => {
    const server = await testServer({
      extraTools: [
        {
          tool: {
            name: 'echo',
            inputSchema: {
              type: 'object',
              properties: { message: { type: 'string' } },
              required: ['message'],
              additionalProperties: false,
            },
          },
          run: async (args) => ({ content: [{ type: 'text', text: `echo: ${String(args.message)}` }] }),
        },
      ],
    });
    const { registry } = setup();
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    await registry.connect('mine');
    const result = await registry.callTool('mine', 'echo', { text: 'hi' });
    expect(result.failure).toEqual({
      kind: 'invalid-arguments',
      message: 'Invalid arguments for "echo": Missing required property "message". Property "text" is not allowed.',
    });
  });
});

describe('Check again', () => {
  it("reads a connected server's tools again, for a server that does not say they changed", async () => {
    const server = await testServer();
    const { registry } = setup();
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    await registry.connect('mine');
    const count = () => registry.tools(['mine']).length;
    const before = count();
    server.addTool('fresh', 'Added without list_changed', { silently: true });
    const events: string[] = [];
    registry.subscribe((event) => events.push(event.type));
    expect(await registry.checkAgain('mine')).toMatchObject({ status: 'connected' });
    expect(count()).toBe(before + 1);
    expect(events).toContain('resources'); // the resources listed of it (the @ list, the panel) are listed again
    expect(registry.tools(['mine']).map((t) => t.toolName)).toContain('fresh');
  });
});

describe('output schemas', () => {
  it('keeps a result whose structured content breaks the tool’s output schema, with a note saying how', async () => {
    const outputSchema = {
      type: 'object' as const,
      properties: { temp: { type: 'number' }, unit: { enum: ['C', 'F'] } },
      required: ['temp'],
    };
    const server = await testServer({
      extraTools: [
        {
          tool: { name: 'weather', inputSchema: { type: 'object' }, outputSchema },
          run: async () => ({
            content: [{ type: 'text', text: 'Sunny, 22 degrees' }],
            structuredContent: { temp: 'warm', unit: 'C' },
          }),
        },
        {
          tool: { name: 'forecast', inputSchema: { type: 'object' }, outputSchema },
          run: async () => ({ content: [{ type: 'text', text: 'Rain tomorrow' }] }),
        },
        {
          tool: { name: 'today', inputSchema: { type: 'object' }, outputSchema },
          run: async () => ({ content: [{ type: 'text', text: '18 C' }], structuredContent: { temp: 18, unit: 'C' } }),
        },
      ],
    });
    const { registry } = setup();
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    await registry.connect('mine');
    const broken = await registry.callTool('mine', 'weather', {});
    expect(broken.failure).toBeUndefined();
    expect(textOf(broken)).toMatch(
      /^\[Not as declared: weather's structured content does not match its output schema: .*temp.*\. The result is given as the tool sent it\.\]Sunny, 22 degrees$/,
    );
    const missing = await registry.callTool('mine', 'forecast', {});
    expect(missing.failure).toBeUndefined();
    expect(textOf(missing)).toBe(
      '[Not as declared: forecast declares an output schema but returned no structured content. The result is given as the tool sent it.]Rain tomorrow',
    );
    const fine = await registry.callTool('mine', 'today', {});
    expect(textOf(fine)).toBe('18 C');
    expect(fine.structuredContent).toEqual({ temp: 18, unit: 'C' });
  });

  it('names every problem of the structured content, at most 8 like argument errors, and keeps the text', async () => {
    const properties = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`n${i}`, { type: 'number' }]));
    const server = await testServer({
      extraTools: [
        {
          tool: {
            name: 'two',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { temp: { type: 'number' }, unit: { enum: ['C', 'F'] } } },
          },
          run: async () => ({
            content: [{ type: 'text', text: 'Warm' }],
            structuredContent: { temp: 'warm', unit: 'K' },
          }),
        },
        {
          tool: { name: 'ten', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties } },
          run: async () => ({
            content: [{ type: 'text', text: 'Ten words' }],
            structuredContent: Object.fromEntries(Object.keys(properties).map((key) => [key, 'x'])),
          }),
        },
      ],
    });
    const { registry } = setup();
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    await registry.connect('mine');
    const two = await registry.callTool('mine', 'two', {});
    expect(two.failure).toBeUndefined();
    expect(textOf(two)).toMatch(
      /^\[Not as declared: two's structured content does not match its output schema: temp: wrong type: expected number, got string\. unit: .+\. The result is given as the tool sent it\.\]Warm$/,
    );
    const ten = textOf(await registry.callTool('mine', 'ten', {}));
    expect(ten.match(/wrong type/g)).toHaveLength(8);
    expect(ten).toMatch(/\(2 more problems not named\.\) The result is given as the tool sent it\.\]Ten words$/);
  });

  it('adds no note for an output schema the app cannot use (not valid JSON Schema, or not compilable)', async () => {
    const returnsText = async () => ({ content: [{ type: 'text' as const, text: 'Plain' }] });
    const server = await testServer({
      extraTools: [
        {
          tool: {
            name: 'misspelt',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { temp: { type: 'nmber' } } },
          },
          run: returnsText,
        },
        {
          tool: {
            name: 'bad-pattern',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { temp: { type: 'string', pattern: '(' } } },
          },
          run: returnsText,
        },
      ],
    });
    const { registry } = setup();
    await registry.register({ id: 'mine', name: 'Mine', url: server.url }, 'user');
    await registry.connect('mine');
    expect(textOf(await registry.callTool('mine', 'misspelt', {}))).toBe('Plain');
    expect(textOf(await registry.callTool('mine', 'bad-pattern', {}))).toBe('Plain');
  });
});
