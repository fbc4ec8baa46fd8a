import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/** How many request ids per session are remembered (a replay reaches back at most a stream's stored events). */
const REMEMBERED_IDS = 1000;

/**
 * The transport as the Client sees it, minus server requests it has already delivered in this session. A request id
 * is never reused within a session (MCP basic protocol), so one that comes again is a replay: a server resuming a
 * stream with Last-Event-ID may send events of other streams again (server-everything does). Without this, a sampling
 * or elicitation request already answered would be shown to the person a second time, or refused with a notice.
 */
export function guardReplayedRequests(inner: Transport): Transport {
  const seen = new Set<string>();
  const guard: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => inner.send(message, options),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
  };
  inner.onclose = () => guard.onclose?.();
  inner.onerror = (error) => guard.onerror?.(error);
  inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    if (isJSONRPCRequest(message)) {
      const key = JSON.stringify([inner.sessionId ?? null, message.id]);
      if (seen.has(key)) return;
      seen.add(key);
      if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value as string);
    }
    guard.onmessage?.(message, extra);
  };
  return guard;
}
