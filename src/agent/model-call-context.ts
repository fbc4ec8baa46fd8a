import type { Message } from '../domain/message';
import type { ModelCallTrace, TraceEntry, Usage } from '../domain/trace';
import { contextOf, type ModelContext } from './compaction-context';
import {
  prepareContext,
  recordServerCompaction,
  streamCompacting,
  type CompactionSettings,
  type CompactionStore,
  type PrepareInput,
} from './compaction';
import type { ModelPort, ModelRequest, ModelResult } from './model-port';
import { rememberRequest } from './request-part';
import { fitHistoryToTools } from './tool-references';

/** What a turn needs to keep long threads within the model's context window. */
export interface CompactionDeps {
  readonly store: CompactionStore;
  readonly settings: CompactionSettings;
}

/**
 * One model call with the thread's context as the model should see it: compacted first when it would pass the
 * threshold, the API's compaction kept when it made one. Returns the result and the trace entries of what was done
 * before the call (compactions, summary calls).
 */
export async function streamWithContext(
  deps: { readonly model: ModelPort; readonly compaction?: CompactionDeps },
  stored: readonly Message[],
  answer: Message,
  base: Omit<ModelRequest, 'messages'>,
  callTrace: (extra: { usage?: Usage; stopReason?: string; error?: string }) => ModelCallTrace,
  onSnapshot: Parameters<ModelPort['stream']>[1],
  signal: AbortSignal,
): Promise<{ result: ModelResult; trace: TraceEntry[] }> {
  let sent: ModelRequest | undefined;
  const build = (context: ModelContext, serverCompaction?: ModelRequest['serverCompaction']): ModelRequest =>
    (sent = {
      ...base,
      // References to tools this request no longer carries are turned into notes (the API refuses them).
      messages: fitHistoryToTools(context.messages, base.tools),
      ...(context.compactionBlock ? { compactionBlock: context.compactionBlock } : {}),
      ...(serverCompaction ? { serverCompaction } : {}),
    });
  try {
    return await callWithContext(deps, stored, answer, base, build, callTrace, onSnapshot, signal);
  } catch (error) {
    if (sent) rememberRequest(error, sent);
    throw error;
  }
}

async function callWithContext(
  deps: { readonly model: ModelPort; readonly compaction?: CompactionDeps },
  stored: readonly Message[],
  answer: Message,
  base: Omit<ModelRequest, 'messages'>,
  build: (context: ModelContext, serverCompaction?: ModelRequest['serverCompaction']) => ModelRequest,
  callTrace: (extra: { usage?: Usage; stopReason?: string; error?: string }) => ModelCallTrace,
  onSnapshot: Parameters<ModelPort['stream']>[1],
  signal: AbortSignal,
): Promise<{ result: ModelResult; trace: TraceEntry[] }> {
  if (!deps.compaction) {
    const result = await deps.model.stream(build(contextOf(stored, [])), onSnapshot, signal);
    return { result, trace: [] };
  }
  const input: PrepareInput = {
    history: stored,
    store: deps.compaction.store,
    settings: deps.compaction.settings,
    request: base,
    model: deps.model,
    callTrace,
  };
  const prepared = await prepareContext(input, signal);
  const { result, prepared: used } = await streamCompacting(input, prepared, build, onSnapshot, signal);
  const server = used.serverCompaction ? await recordServerCompaction(input, answer, result, used.tokens) : undefined;
  return { result, trace: server ? [...used.trace, server] : used.trace };
}
