// Fault matrix, Anthropic's programmatic tool calling: an endpoint that does not offer the code execution tool (an
// Anthropic-compatible gateway) refuses the request; the person reads what to do, and Retry works once Code is
// switched away from Anthropic. Contract fake of the Messages API, a real MCP server on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { NO_CODE_EXECUTION } from '../../../src/agent/model-call';
import { retryTurn, sendMessage } from '../../../src/turns/turn-runner';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';
import { faultAppsPerTest, storedMessages } from './turn-harness';

const { app, own } = faultAppsPerTest();

describe("Anthropic's code execution refused by the endpoint", () => {
  it('says to set Code to On or Off, keeps the question, and Retry answers once Code is off', async () => {
    const server = await own(startTestMcpServer());
    const faults = await app({ maxRetries: 0, api: { codeExecutionTypes: [] } });
    await faults.addServer('calc', server.url);
    const created = await faults.opened.storage.threads.create(faults.profileId, {
      title: 'No code execution here',
      enabledServerIds: ['calc'],
    });
    await faults.opened.storage.threads.update(created.id, () => ({ codeExecution: 'anthropic' }));
    const options = { askApproval: () => Promise.resolve('allow-once' as const), signal: new AbortController().signal };
    const outcome = await sendMessage(faults.deps, created.id, 'Add 2 and 3 with code', options);
    expect(outcome.status).toBe('error');
    const [question, failed] = await storedMessages(faults, created.id);
    expect(question?.text).toBe('Add 2 and 3 with code');
    expect(failed?.status).toBe('error');
    expect(failed?.error).toMatch(/^The API refused the request\. \(tools\.\d+: Input tag 'code_execution_20260120'/);
    expect(failed?.error?.endsWith(NO_CODE_EXECUTION)).toBe(true);

    await faults.opened.storage.threads.update(created.id, () => ({ codeExecution: 'off' }));
    faults.api.script({ text: 'Five.' });
    expect(await retryTurn(faults.deps, created.id, options)).toEqual({ status: 'done' });
    expect((await storedMessages(faults, created.id)).at(-1)).toMatchObject({ status: 'complete', text: 'Five.' });
    expect(faults.api.requests.at(-1)?.toolNames).not.toContain('code_execution');
  });
});
