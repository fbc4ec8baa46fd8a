import { isRefusedBeforeSending } from '../domain/refused-before-sending';
import { describeError } from '../domain/errors';
import { NotFoundError } from '../domain/errors';
import { costOf, traceCost } from '../domain/pricing';
import {
  cappedMaxTokens,
  modelChoiceNote,
  SamplingRejectedError,
  samplingModelMessages,
  type SamplingReply,
  type SamplingRequest,
} from '../domain/sampling';
import type { ModelCallTrace, Usage } from '../domain/trace';
import { profileModel } from './profile-model';
import type { TurnRunnerDeps } from './turn-runner';

export type SamplingDeps = Pick<TurnRunnerDeps, 'storage' | 'profileId' | 'defaults' | 'createModel' | 'now'>;

/** How a server's request will run in a thread: on the person's model, with max tokens capped. */
export interface SamplingPlan {
  readonly model: string;
  readonly maxTokens: number;
  /** Said when the server hinted at another model. */
  readonly modelNote?: string;
}

/** The model, max tokens and a note for a server's sampling request in this thread (the thread's own model). */
export async function planSampling(
  deps: SamplingDeps,
  threadId: string,
  request: SamplingRequest,
): Promise<SamplingPlan> {
  const [thread, profile] = await Promise.all([
    deps.storage.threads.get(threadId),
    deps.storage.profiles.get(deps.profileId),
  ]);
  if (!thread) throw new NotFoundError('thread', threadId);
  if (!profile) throw new NotFoundError('profile', deps.profileId);
  const prefs = profile.preferences;
  const model = thread.model ?? prefs.model ?? deps.defaults.model;
  const note = modelChoiceNote(request.modelHints, model);
  return {
    model,
    maxTokens: cappedMaxTokens(request.maxTokens, prefs.maxTokens ?? deps.defaults.maxTokens),
    ...(note ? { modelNote: note } : {}),
  };
}

/**
 * Runs an approved sampling request on the person's key, within their spending limits. `onTrace` gets the call's
 * trace (tokens, cost, the server it ran for) whether it answered or failed. Throws SamplingRejectedError for content
 * the API does not take, and the model's error otherwise.
 */
export async function runSamplingCall(
  deps: SamplingDeps,
  plan: SamplingPlan,
  request: SamplingRequest,
  server: { readonly id: string; readonly name: string },
  onTrace: (entry: ModelCallTrace) => void,
  signal: AbortSignal,
): Promise<SamplingReply> {
  const converted = samplingModelMessages(request.messages);
  if (!converted.ok) throw new SamplingRejectedError(`The request cannot be sent to the model: ${converted.reason}.`);
  const profile = await deps.storage.profiles.get(deps.profileId);
  if (!profile) throw new NotFoundError('profile', deps.profileId);
  const { model } = await profileModel(deps, profile.preferences);
  const started = deps.now();
  const trace = (extra: { usage?: Usage; stopReason?: string; error?: string }): ModelCallTrace => ({
    kind: 'model-call',
    model: plan.model,
    toolNames: [],
    toolTokens: 0,
    durationMs: deps.now() - started,
    sampledFor: { serverId: server.id, serverName: server.name },
    ...extra,
    ...(extra.usage && deps.defaults.prices ? traceCost(costOf(plan.model, extra.usage, deps.defaults.prices)) : {}),
  });
  let usageSoFar: Usage | undefined;
  try {
    const result = await model.stream(
      {
        model: plan.model,
        maxTokens: plan.maxTokens,
        messages: converted.messages,
        tools: [],
        ...(request.systemPrompt ? { system: request.systemPrompt } : {}),
      },
      (_blocks, usage) => void (usageSoFar = usage ?? usageSoFar),
      signal,
    );
    onTrace(trace({ usage: result.usage, ...(result.stopReason ? { stopReason: result.stopReason } : {}) }));
    const text = result.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    return { model: plan.model, text, stopReason: result.stopReason ?? 'end_turn' };
  } catch (error) {
    // A call refused before sending (no key, a limit) was never made: no model call to trace.
    if (!isRefusedBeforeSending(error))
      onTrace(trace({ error: describeError(error), ...(usageSoFar ? { usage: usageSoFar } : {}) }));
    throw error;
  }
}
