import {
  AppBridge,
  PostMessageTransport,
  type McpUiDisplayMode,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { ShownResult } from '../domain/tool-display';
import { logFailure, silentLogger, type Logger } from '../domain/logger';

/** Where the MCP Apps sandbox proxy is served (public/mcp-app/), with its own CSP (security-headers.ts). */
export const MCP_APP_PROXY_PATH = 'mcp-app/proxy.html';

const HOST_INFO = { name: 'MCP Agent', version: '0.1.0' };

/** A tool result as an app receives it (MCP's CallToolResult). */
export interface AppToolResult {
  readonly content: ShownResult['content'];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** How the page answers an app's requests; each may refuse by throwing (the app gets a JSON-RPC error). */
export interface AppRequests {
  /** tools/call: through the thread's one tool path, with its approval policy. */
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<AppToolResult>;
  /** ui/message: resolves false when the person declined it. */
  sendMessage(text: string): Promise<boolean>;
  /** ui/open-link: resolves false when the person declined it. */
  openLink(url: string): Promise<boolean>;
  /**
   * ui/update-model-context: the app's latest context for the model's next turns (text; empty clears it); resolves
   * once kept (the app hears of a failure as an error).
   */
  updateModelContext(text: string): Promise<void>;
  /** ui/request-display-mode: the mode the page switched to. */
  requestDisplayMode(mode: McpUiDisplayMode): McpUiDisplayMode;
  /** The app's content height changed. */
  resize(height: number): void;
}

export interface AppFrameOptions {
  /** The app's document, its CSP already the first tag (mcp-app-csp.ts: withAppCsp). */
  readonly html: string;
  readonly proxyUrl: string;
  readonly toolInput: Record<string, unknown>;
  readonly toolResult: AppToolResult;
  readonly hostContext: McpUiHostContext;
  readonly requests: AppRequests;
  /** The frame did not come up, or the app broke the protocol: the card shows the plain result with this line. */
  readonly onFailure: (message: string) => void;
  readonly title: string;
  readonly loadTimeoutMs?: number;
  /** Where a goodbye the app did not answer is reported (the frame goes anyway). */
  readonly logger?: Logger;
}

/** One app on the page: its frame and the bridge to it. */
export interface AppFrame {
  /** Tells the app what changed (theme, display mode, container size). */
  setHostContext(context: McpUiHostContext): void;
  /** Asks the app to tear down (briefly), then removes its frame. */
  close(): Promise<void>;
}

const textOf = (content: readonly { type: string; text?: string }[] | undefined) =>
  (content ?? [])
    .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
    .join('\n');

/**
 * Mounts an MCP App in `container`: the sandbox proxy in an iframe sandboxed with allow-scripts only (an opaque origin:
 * no storage, no cookies, not this page), the app's document in the proxy's own inner frame, and the extension's
 * AppBridge (the package's host side) over postMessage with that one frame. The app gets the host context, the tool's
 * input and result; its requests go to `requests`.
 */
export function mountAppFrame(container: HTMLElement, options: AppFrameOptions): AppFrame {
  const logger = options.logger ?? silentLogger;
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.title = options.title;
  frame.className = 'mcp-app-frame';
  const bridge = new AppBridge(
    null,
    HOST_INFO,
    {
      openLinks: {},
      serverTools: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {} },
    },
    { hostContext: options.hostContext },
  );
  let isClosed = false;
  const fail = (message: string) => {
    if (isClosed) return;
    options.onFailure(message);
  };
  const timer = setTimeout(
    () => fail('The app did not start in time; the plain result shows instead.'),
    options.loadTimeoutMs ?? 30_000,
  );
  const { requests } = options;
  bridge.oncalltool = async (params, extra) => {
    const result = await requests.callTool(params.name, params.arguments ?? {}, extra.signal);
    return {
      content: result.content as never,
      ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
      ...(result.isError ? { isError: true } : {}),
    };
  };
  bridge.onmessage = async (params) => ((await requests.sendMessage(textOf(params.content))) ? {} : { isError: true });
  bridge.onopenlink = async (params) => ((await requests.openLink(params.url)) ? {} : { isError: true });
  bridge.onupdatemodelcontext = async (params) => {
    const structured = params.structuredContent ? JSON.stringify(params.structuredContent) : '';
    await requests.updateModelContext([textOf(params.content), structured].filter(Boolean).join('\n'));
    return {};
  };
  bridge.onrequestdisplaymode = (params) => Promise.resolve({ mode: requests.requestDisplayMode(params.mode) });
  bridge.addEventListener('sizechange', ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height) && height >= 0) requests.resize(height);
  });
  bridge.addEventListener('sandboxready', () => {
    void bridge.sendSandboxResourceReady({ html: options.html, sandbox: 'allow-scripts' });
  });
  bridge.addEventListener('initialized', () => {
    clearTimeout(timer);
    void bridge.sendToolInput({ arguments: options.toolInput });
    void bridge.sendToolResult({
      content: options.toolResult.content as never,
      ...(options.toolResult.structuredContent ? { structuredContent: options.toolResult.structuredContent } : {}),
      ...(options.toolResult.isError ? { isError: true } : {}),
    });
  });
  container.append(frame);
  const target = frame.contentWindow;
  if (!target) {
    fail('The app’s frame could not be made.');
  } else {
    // The transport listens only to this frame's window; the proxy's URL loads once the bridge listens.
    bridge.connect(new PostMessageTransport(target, target)).then(
      () => void (frame.src = options.proxyUrl),
      () => fail('The app could not be connected.'),
    );
  }
  return {
    setHostContext: (context) => {
      if (!isClosed) bridge.setHostContext(context);
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      clearTimeout(timer);
      // A short, bounded goodbye: an app that never answers does not hold its frame.
      await Promise.race([
        bridge
          .teardownResource({})
          .catch(logFailure(logger, 'The app did not take its teardown', { title: options.title })),
        new Promise((resolve) => setTimeout(resolve, 500)),
      ]);
      await bridge.close().catch(logFailure(logger, 'Closing the app bridge failed', { title: options.title }));
      frame.remove();
    },
  };
}
