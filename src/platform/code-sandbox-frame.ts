import type { PageMessage } from '../domain/code-execution';

/** Where the sandbox page is served (public/sandbox/), with its own CSP (security-headers.ts: SANDBOX_HEADERS). */
export const CODE_SANDBOX_PATH = 'sandbox/code-runner.html';

/** One open sandbox frame (the shape of the agent's SandboxChannel, kept here so platform/ imports no agent/). */
export interface FrameChannel {
  post(message: PageMessage): void;
  listen(handle: (message: unknown) => void): void;
  close(): void;
}

/**
 * Opens the code sandbox: an iframe sandboxed with allow-scripts only (an opaque origin: it reaches no storage, no
 * cookies and not this page), served with a CSP that allows no connections. It gets one MessagePort, the only way
 * in or out; its worker runs the code, so an endless loop never holds up this page. close() removes the frame,
 * which ends its worker at once.
 */
export function openCodeSandboxFrame(
  document: Document,
  url: string,
  signal: AbortSignal,
  loadTimeoutMs = 30_000,
): Promise<FrameChannel> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('aria-hidden', 'true');
  frame.title = 'Code sandbox';
  frame.hidden = true;
  frame.src = url;
  return new Promise<FrameChannel>((resolve, reject) => {
    const fail = (message: string) => {
      clearTimeout(timer);
      frame.remove();
      reject(new Error(message));
    };
    const timer = setTimeout(() => fail('its page did not load'), loadTimeoutMs);
    const onStop = () => fail('stopped');
    signal.addEventListener('abort', onStop, { once: true });
    frame.addEventListener(
      'load',
      () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onStop);
        const target = frame.contentWindow;
        if (!target) return fail('its frame has no window');
        const channel = new MessageChannel();
        target.postMessage({ type: 'mcp-agent-code-init' }, '*', [channel.port2]);
        resolve({
          post: (message) => channel.port1.postMessage(message),
          listen: (handle) => {
            channel.port1.onmessage = (event: MessageEvent<unknown>) => handle(event.data);
          },
          close: () => {
            channel.port1.postMessage({ type: 'kill' });
            channel.port1.close();
            frame.remove();
          },
        });
      },
      { once: true },
    );
    document.body.append(frame);
  });
}
