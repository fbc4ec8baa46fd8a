// How the fake Anthropic API writes a scripted answer to the response: streamed frame by frame with the script's
// interruptions (cut, stall, hold, an error event mid-stream, a delay per delta), or as one JSON Message.
import type { ServerResponse } from 'node:http';
import type { AnswerContext } from './fake-anthropic-blocks';
import { sendError, sendJson } from './fake-anthropic-http';
import { errorBody, jsonMessage, sseText, streamFrames } from './fake-anthropic-protocol';
import type { ContentTurn } from './fake-anthropic-script';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const write = (res: ServerResponse, text: string) =>
  new Promise<void>((resolve) => (res.destroyed ? resolve() : void res.write(text, () => resolve())));
const closed = (res: ServerResponse) =>
  new Promise<void>((resolve) => (res.destroyed ? resolve() : void res.once('close', resolve)));

/** Streams `turn`'s answer as SSE, cut, stalled, held or failed after as many deltas as the script says. */
export async function answerStream(
  res: ServerResponse,
  turn: ContentTurn,
  ctx: AnswerContext,
  requestId: string,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': requestId,
  });
  let deltas = 0;
  for (const frame of streamFrames(turn, ctx)) {
    // Interruptions happen after n deltas, or before message_delta when the turn has fewer.
    if (frame.isDelta || frame.event === 'message_delta') {
      if (turn.cutAfterChunks !== undefined && deltas >= turn.cutAfterChunks) return void res.socket?.destroy();
      if (turn.stallAfterChunks !== undefined && deltas >= turn.stallAfterChunks) return closed(res);
      if (turn.holdAfterChunks && deltas === turn.holdAfterChunks.afterChunks)
        await Promise.race([turn.holdAfterChunks.until.catch(() => undefined), closed(res)]);
      const failure = turn.midStreamError;
      if (failure && deltas >= failure.afterChunks) {
        const data = errorBody(failure.type ?? 'overloaded_error', failure.message, requestId);
        await write(res, sseText({ event: 'error', data, isDelta: false }));
        return void res.end();
      }
    }
    if (frame.isDelta && turn.delayMs) await sleep(turn.delayMs);
    if (res.destroyed) return;
    await write(res, sseText(frame));
    if (frame.isDelta) deltas++;
  }
  res.end();
}

/** Sends `turn`'s answer whole (`stream: false`); a cut or stall drops or holds the connection, a mid-stream error is an HTTP error. */
export async function answerJson(
  res: ServerResponse,
  turn: ContentTurn,
  ctx: AnswerContext,
  requestId: string,
): Promise<void> {
  if (turn.cutAfterChunks !== undefined) return void res.socket?.destroy();
  if (turn.stallAfterChunks !== undefined) return closed(res);
  if (turn.midStreamError)
    return sendError(
      res,
      requestId,
      turn.midStreamError.type ?? 'overloaded_error',
      turn.midStreamError.message ?? 'Overloaded',
      { 'request-id': requestId },
    );
  sendJson(res, 200, jsonMessage(turn, ctx), { 'request-id': requestId });
}
