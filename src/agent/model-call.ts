import { isRefusedBeforeSending } from '../domain/refused-before-sending';
import type { ContentBlock, Message } from '../domain/message';
import { AppError } from '../domain/errors';
import { ModelError } from '../domain/model-errors';
import { logFailure, silentLogger } from '../domain/logger';
import type { ModelTool } from '../domain/tool';
import type { ModelCallTrace } from '../domain/trace';
import { costOf, traceCost } from '../domain/pricing';
import { streamWithContext } from './model-call-context';
import { offendingPart } from './request-part';
import { serverSearchTraces } from './server-search-trace';
import type { MessageChange, TurnDeps, TurnOutcome } from './turn-deps';

/** The note on an answer the person stopped. */
export const STOPPED_NOTE = 'Stopped; the answer above is partial.';

/** What to do when an endpoint refuses Anthropic's code execution tool (one without programmatic tool calling). */
export const NO_CODE_EXECUTION =
  'This endpoint may not offer Anthropic\'s code execution: set Code to "On" (in this page) or "Off" in Settings or in the thread\'s settings, then Retry.';

const codeExecutionRefused = (error: unknown, tools: readonly ModelTool[]): boolean =>
  error instanceof ModelError &&
  error.reason === 'bad-request' &&
  tools.some((t) => 'type' in t && t.type.startsWith('code_execution_')) &&
  /code_execution/.test(error.detail ?? '');

/** A model call's stored answer; `outcome` ends the turn (stopped or failed). */
export type Answer = {
  readonly outcome?: TurnOutcome;
  readonly message: Message;
  readonly stopReason: string | null;
  readonly container?: string;
};

/**
 * One model call of a turn: streams the answer into a stored message (written as it grows), and ends it complete,
 * stopped or failed with a note that says why; its trace has the call's tokens, cost and tools.
 */
export async function modelCall(
  deps: TurnDeps,
  definitions: readonly ModelTool[],
  signal: AbortSignal,
  container?: string,
): Promise<Answer> {
  const { persistence, settings } = deps;
  const tools = definitions;
  const stored = await persistence.history();
  let message = await persistence.append({ role: 'assistant', blocks: [], status: 'streaming' });
  const started = deps.now();
  let lastWrite = -Infinity;
  let pendingWrite: Promise<unknown> = Promise.resolve();
  const trace = (extra: Partial<ModelCallTrace>): ModelCallTrace => ({
    kind: 'model-call',
    model: settings.model,
    toolNames: tools.map((t) => t.name),
    toolTokens: Math.ceil(JSON.stringify(tools).length / 4),
    durationMs: deps.now() - started,
    ...extra,
    ...(extra.usage && settings.prices ? traceCost(costOf(settings.model, extra.usage, settings.prices)) : {}),
  });
  const request = {
    model: settings.model,
    maxTokens: settings.maxTokens,
    tools,
    ...(settings.system ? { system: settings.system } : {}),
    ...(settings.trailingContext ? { trailingContext: settings.trailingContext } : {}),
    ...(settings.thinkingBudget ? { thinkingBudget: settings.thinkingBudget } : {}),
    ...(container ? { container } : {}),
  };
  let latest: ContentBlock[] = [];
  let usageSoFar: ModelCallTrace['usage'];
  const every = settings.persistEveryMs ?? 1000;
  let trailing: ReturnType<typeof setTimeout> | undefined;
  const writeSoFar = () => {
    clearTimeout(trailing);
    trailing = undefined;
    lastWrite = deps.now();
    const blocks = latest;
    // With the usage known so far: a page closed mid-answer leaves a call the totals and limits still count.
    const soFar = usageSoFar && [trace({ usage: usageSoFar })];
    pendingWrite = pendingWrite
      .then(() => persistence.update(message.id, { blocks, ...(soFar ? { trace: soFar } : {}) }))
      .catch(logFailure(deps.logger ?? silentLogger, 'Saving a streaming answer failed', { messageId: message.id }));
  };
  try {
    const { result, trace: before } = await streamWithContext(
      deps,
      stored,
      message,
      request,
      trace,
      (blocks, usage) => {
        latest = blocks;
        usageSoFar = usage ?? usageSoFar;
        deps.onMessage?.({ ...message, blocks });
        // The first words are written at once (a tab closed right away still keeps them), then at most every
        // persistEveryMs; words that came since the last write are written when the interval is up, even if the
        // stream goes quiet meanwhile (a long thought, pings only), so a reload then keeps what the person read.
        const hasContent = blocks.some((b) => b.type !== 'text' || b.text.length > 0);
        if (!hasContent) return;
        const wait = every - (deps.now() - lastWrite);
        if (wait <= 0) writeSoFar();
        else trailing ??= setTimeout(writeSoFar, wait);
      },
      signal,
    );
    clearTimeout(trailing);
    latest = result.blocks;
    await pendingWrite;
    message = await persistence.update(message.id, {
      blocks: result.blocks,
      status: 'complete',
      trace: [
        ...before,
        trace({
          usage: result.usage,
          stopReason: result.stopReason ?? undefined,
          ...(result.container ? { container: result.container.id } : {}),
          ...(result.limits ? { limits: result.limits } : {}),
        }),
        ...serverSearchTraces(result.blocks),
      ],
    });
    deps.onMessage?.(message);
    return { message, stopReason: result.stopReason, ...(result.container ? { container: result.container.id } : {}) };
  } catch (error) {
    clearTimeout(trailing);
    await pendingWrite;
    const stopped = signal.aborted;
    // A model error, or storage refusing the finished answer (a full disk), says itself what went wrong.
    const said = stopped
      ? STOPPED_NOTE
      : error instanceof AppError
        ? error.message
        : `The model call failed: ${error instanceof Error ? error.message : String(error)}`;
    const text =
      !stopped && container === undefined && codeExecutionRefused(error, tools) ? `${said} ${NO_CODE_EXECUTION}` : said;
    const ended: MessageChange = {
      blocks: latest,
      status: stopped ? 'interrupted' : 'error',
      error: text,
      // What a stopped or failed answer used so far still counts; a call refused before sending was never made.
      trace: isRefusedBeforeSending(error)
        ? []
        : [trace({ error: text, ...offendingPart(error, request), ...(usageSoFar ? { usage: usageSoFar } : {}) })],
    };
    try {
      message = await persistence.update(message.id, ended);
    } catch (saveError) {
      // Storage refuses this as well: the person still sees the answer as it stands, marked with why it was not kept
      // (and offered Retry), instead of an answer "in progress" forever.
      const why = saveError instanceof AppError ? saveError.message : 'This answer could not be saved.';
      deps.onMessage?.({ ...message, ...ended, status: 'error', error: text === why ? why : `${text} ${why}` });
      throw saveError;
    }
    deps.onMessage?.(message);
    return { message, stopReason: null, outcome: stopped ? { status: 'stopped' } : { status: 'error', error: text } };
  }
}
