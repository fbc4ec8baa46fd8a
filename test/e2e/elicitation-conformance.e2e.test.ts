/**
 * The conformance suite's elicitation scenario (elicitation-sep1034-client-defaults, spec 2025-11-25) through the
 * UI's handler in the production build (issue #20, item 3). The official runner drives a headless client; here an
 * SDK-built server sends the scenario's exact request (a default for each field type: string, integer, number, enum,
 * boolean) and records what it receives, while the person answers the form in Chromium.
 */
import type { Page } from 'playwright-core';
import { ElicitResultSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startTestMcpServer, type TestMcpServer, type ToolEntry } from '../fixtures/test-mcp-server';
import { appServersConfig, saveKeyAndBaseUrl, startModelRig, type ModelRig } from './app-page';
import { openNewThread, switchServerOn } from './app-steps';

let server: TestMcpServer | undefined;
let rig: ModelRig | undefined;
let api: FakeAnthropic | undefined;
let page: Page;
let pageErrors: string[] = [];
/** What the server received for each elicitation, in order. */
const received: ElicitResult[] = [];

/** The scenario's request, as the conformance package's scenario server sends it. */
const SCENARIO_TOOL: ToolEntry = {
  tool: {
    name: 'test_client_elicitation_defaults',
    description: 'Tests that client applies defaults for omitted elicitation fields',
    inputSchema: { type: 'object', properties: {}, required: [] },
    annotations: { readOnlyHint: true },
  },
  run: async (_args, _signal, extra) => {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message: 'Test client default value handling - please accept with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: {
                type: 'string',
                description: 'User status',
                enum: ['active', 'inactive', 'pending'],
                default: 'active',
              },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
            required: [],
          },
        },
      },
      ElicitResultSchema,
    );
    received.push(answer);
    return { content: [{ type: 'text', text: `Elicitation completed: ${JSON.stringify(answer.content ?? {})}` }] };
  },
};

const box = () => page.getByRole('textbox', { name: 'Message', exact: true });
const form = () => page.getByRole('region', { name: 'Request from Scenario' });

async function askForTheForm(after: string): Promise<void> {
  await openNewThread(page);
  await switchServerOn(page, 'Scenario');
  api!.script({ toolUses: [{ name: 'mcp__scenario__test_client_elicitation_defaults', input: {} }] }, { text: after });
  await box().fill('Run the scenario');
  await box().press('Enter');
  await form().waitFor({ timeout: 30_000 });
}

describe('the conformance elicitation scenario, answered by a person', () => {
  beforeAll(async () => {
    server = await startTestMcpServer({ extraTools: [SCENARIO_TOOL] });
    const appConfig = appServersConfig([{ id: 'scenario', name: 'Scenario', url: server.url }]);
    rig = await startModelRig({ appConfig });
    ({ api, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-conformance-e2e', api.url);
  });

  afterAll(async () => {
    await rig?.close();
    await server?.stop();
  });

  it('accepted as shown, the server receives every default with its type (SEP-1034 checks)', async () => {
    await askForTheForm('Defaults received.');
    expect(await form().getByLabel('name', { exact: true }).inputValue()).toBe('John Doe');
    await form().getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('list', { name: 'Messages' }).getByText('Defaults received.').waitFor({ timeout: 30_000 });
    expect(received.at(-1)).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    });
  });

  it('filled in by the person, each field type arrives typed; a wrong integer is caught before sending', async () => {
    const before = received.length;
    await askForTheForm('Answers received.');
    await form().getByLabel('name', { exact: true }).fill('Ada');
    await form().getByLabel('age', { exact: true }).fill('4.5');
    await form().getByLabel('score', { exact: true }).fill('88.25');
    await form().getByLabel('status', { exact: true }).selectOption('pending');
    await form().getByLabel('verified', { exact: true }).uncheck();
    await form().getByRole('button', { name: 'Accept' }).click();
    await form().getByText('Enter a whole number.').waitFor();
    expect(received.length).toBe(before); // Nothing was sent.
    await form().getByLabel('age', { exact: true }).fill('41');
    await form().getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('list', { name: 'Messages' }).getByText('Answers received.').waitFor({ timeout: 30_000 });
    expect(received.at(-1)).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 41, score: 88.25, status: 'pending', verified: false },
    });
  });

  it('declined, the server receives decline and no content', async () => {
    await askForTheForm('Declined.');
    await form().getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('list', { name: 'Messages' }).getByText('Declined.').waitFor({ timeout: 30_000 });
    expect(received.at(-1)).toEqual({ action: 'decline' });
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
