/** How the model's answer ended, in plain words, keyed by the API's stop reason (and MCP sampling's camelCase names). */
const ENDED: Readonly<Record<string, string>> = {
  end_turn: 'finished',
  endTurn: 'finished',
  max_tokens: 'hit the token limit',
  maxTokens: 'hit the token limit',
  stop_sequence: 'reached a stop sequence',
  stopSequence: 'reached a stop sequence',
  refusal: 'declined to answer',
  pause_turn: 'paused',
  tool_use: 'asked to use a tool',
  model_context_window_exceeded: 'ran out of context',
};

/** "The model finished" / "The model hit the token limit" …; an unknown reason is named as the API gave it. */
export function modelEnded(stopReason: string): string {
  return `The model ${ENDED[stopReason] ?? `stopped (${stopReason})`}`;
}
