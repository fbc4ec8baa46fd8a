// Programmatic tool calling (issue #18): "compare the weather in five cities" as one turn of a scripted model against
// a test MCP server on 127.0.0.1 whose forecasts are about 2,500 tokens each. The same turn twice in one run: the
// model calling the tool five times itself (every result enters the context of each later call), and the model
// writing one execute_code call (only the five means come back). Input tokens of the whole turn, as the contract
// fake of the Messages API accounts them (its prompt-cache accounting: input + cache writes + cache reads).
// The app's storage runs on fake-indexeddb in Node, as in the unit tests.
import 'fake-indexeddb/auto';
import { bindServerActions, createServersStore, EMPTY_SERVER_FORM } from '../../../src/stores/servers-store';
import { sendMessage } from '../../../src/turns/turn-runner';
import type { RecordedRequest } from '../../fakes/fake-anthropic';
import { openNodeSandbox } from '../../fakes/node-code-sandbox';
import { startTestApp } from '../../fakes/test-app';
import { FIVE_CITIES, fiveCityCode, startWeatherServer } from '../../fixtures/weather-mcp-server';
import type { Row } from '../report';

const TOOL = 'mcp__weather__forecast';

const turnTokens = (requests: readonly RecordedRequest[]) =>
  requests.reduce(
    (sum, r) =>
      sum +
      (r.usage ? r.usage.input_tokens + r.usage.cache_creation_input_tokens + r.usage.cache_read_input_tokens : 0),
    0,
  );

/** Input tokens of the five-city turn with execute_code against the same turn with direct tool calls. */
export async function measureProgrammatic(): Promise<Row[]> {
  const [weather, app] = await Promise.all([
    startWeatherServer(),
    startTestApp({ apiKey: 'sk-ant-bench', toolSearch: { deferral: 'never' } }),
  ]);
  try {
    const deps = { ...app.deps, openCodeSandbox: openNodeSandbox };
    const { storage } = app.opened;
    await bindServerActions(createServersStore(app.registry), {
      registry: app.registry,
      storage,
      profileId: app.profile.id,
    }).add({ ...EMPTY_SERVER_FORM, name: 'Weather', url: weather.url });
    const question = `Compare the weather in ${FIVE_CITIES.join(', ')}: which is warmest this week?`;
    const run = async (codeExecution: 'local' | 'off') => {
      const created = await storage.threads.create(app.profile.id, {
        title: codeExecution,
        enabledServerIds: ['weather'],
      });
      const thread = await storage.threads.update(created.id, () => ({ codeExecution }));
      const first = app.api.requests.length;
      const outcome = await sendMessage(deps, thread.id, question, {
        askApproval: async () => 'allow-thread',
        signal: new AbortController().signal,
      });
      if (outcome.status !== 'done') throw new Error(`the ${codeExecution} turn ended ${outcome.status}`);
      return app.api.requests.slice(first);
    };

    app.api.script(...FIVE_CITIES.map((city) => ({ toolUses: [{ name: TOOL, input: { city } }] })), {
      text: 'Cairo is the warmest.',
    });
    const direct = await run('off');
    app.api.script(
      { toolUses: [{ name: 'execute_code', input: { code: fiveCityCode(TOOL) } }] },
      {
        text: 'Cairo is the warmest.',
      },
    );
    const code = await run('local');
    const result = JSON.stringify(code.at(-1)?.body.messages.at(-1));
    if (!FIVE_CITIES.every((city) => result.includes(city)))
      throw new Error(`execute_code did not return the five means: ${result.slice(0, 300)}`);
    const [directTokens, codeTokens] = [turnTokens(direct), turnTokens(code)];
    console.log(
      `  programmatic: direct calls ${directTokens} input tokens in ${direct.length} model calls; execute_code ${codeTokens} in ${code.length}`,
    );
    return [
      {
        figure: 'Five-city weather turn: input tokens',
        unit: 'tokens',
        app: codeTokens,
        baseline: directTokens,
        baselineName: 'direct tool calls',
        budget: { maxRatio: 0.4 },
        note: `execute_code: ${code.length} model calls, ${codeTokens} input tokens; direct: ${direct.length} model calls, ${directTokens} input tokens (forecast ≈ 2,500 tokens each)`,
      },
    ];
  } finally {
    await app.close();
    await weather.stop();
  }
}
