import { logFailure, silentLogger } from '../domain/logger';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AuthRequiredError, McpProtocolError, withReconnectNote } from '../domain/mcp-errors';
import type { ServerConfig } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import { failedResult, type ToolCallResult } from '../domain/tool-result';
import { normalizeCallResult } from './call-result';
import { isSessionExpired, toCallFailure, toConnectionError, type ErrorContext } from './classify-error';
import { endSession, type OpenConnection, type TransportKind } from './connect';
import { dialServer } from './dial-server';
import { diagnoseConnectFailure } from './relay-client';
import { StaleConnectError, untilAborted } from './async-limits';
import { listAllTools, requestToolCall, type ListedTools, type ToolRequestLimits } from './tool-requests';
import { IdleTimer, ReconnectBackoff } from './connection-timers';
import { ListedToolShapes } from './listed-tool-shapes';
import type { CallOptions, ServerConnectionDeps } from './server-connection-deps';

/** Errors of a request that say the connection, or its credentials, are gone (not only this request failed). */
const GONE = new Set(['unreachable', 'cors', 'auth-required']);

/** One server's connection: lazy connect, tool listing, calls that never throw, drop detection and reconnects. */
export class ServerConnection {
  private state: ServerState = { status: 'disconnected' };
  private open?: OpenConnection;
  private connecting?: Promise<OpenConnection>;
  private lastKind?: TransportKind;
  private hasAnswered = false;
  /** Whether a connect ever succeeded (a later failure is the server gone, not its CORS). */
  private hasConnected = false;
  private readonly idle = new IdleTimer(
    () => this.deps.timing.idleMs,
    () => this.inFlight > 0,
    () => void this.disconnect(),
  );
  private readonly reconnects = new ReconnectBackoff(() => this.deps.timing.reconnect);
  private isDisposed = false;
  /** Calls in flight; the idle timer never closes a connection under them. */
  private inFlight = 0;
  /** The open connection has no stream from the server (none to spare): its tool list is re-read on use instead. */
  private isStreamRefused = false;
  /** When the tools were last listed (now()), for the re-reads of a connection without a stream. */
  private listedAt = 0;
  /** What the listed tools' definitions say of calling them (task support, output schema). */
  private readonly shapes = new ListedToolShapes();

  constructor(
    private config: ServerConfig,
    private readonly deps: ServerConnectionDeps,
  ) {}

  get current(): ServerState {
    return this.state;
  }

  /** Replaces the config; a change of URL, transport or auth closes the connection so the next use reconnects. */
  async reconfigure(config: ServerConfig): Promise<void> {
    const changed =
      config.url !== this.config.url ||
      config.transport !== this.config.transport ||
      config.viaRelay !== this.config.viaRelay ||
      JSON.stringify(config.auth) !== JSON.stringify(this.config.auth);
    this.config = config;
    if (changed) {
      this.lastKind = undefined;
      this.hasAnswered = false;
      this.hasConnected = false;
      this.connecting = undefined; // A connect to the old address must not be handed out any more.
      await this.disconnect();
      this.reconnects.reset(); // Retries of the old address do not count against the new one.
      this.setState({ status: 'disconnected' });
    }
  }

  /** Connects if needed; resolves to the open client or throws a typed AppError. */
  async ensureConnected(): Promise<Client> {
    this.idle.touch();
    if (this.open) {
      // Without its stream the server cannot say its tools changed: they are read again before this use.
      // (The listing notes its time as it starts, so a use meanwhile does not read them a second time.)
      if (this.isStreamRefused && this.deps.now() - this.listedAt >= this.deps.timing.relistWithoutStreamMs)
        await this.refreshTools();
      if (this.open) return this.open.client;
    }
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return (await this.connecting).client;
  }

  /** Lists every tool, following pagination cursors (bounded, in case a server repeats them); invalid ones left out. */
  async listTools(): Promise<Tool[]> {
    const client = await this.ensureConnected();
    return (await this.listAll(client)).tools;
  }

  /** Calls a tool. Never throws: every failure comes back as a result with `failure` set. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolCallResult> {
    const started = this.deps.now();
    const elapsed = () => this.deps.now() - started;
    const timeoutMs = options.timeoutMs ?? this.deps.timing.callTimeoutMs;
    const context = (): ErrorContext & { isAborted: boolean; timeoutMs: number } => ({
      ...this.errorContext(),
      isAborted: options.signal?.aborted ?? false,
      timeoutMs,
    });
    this.inFlight++;
    try {
      return await this.callWithRetry(name, args, options, timeoutMs, context, elapsed);
    } finally {
      this.inFlight--;
      this.idle.touch();
    }
  }

  private async callWithRetry(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
    timeoutMs: number,
    context: () => ErrorContext & { isAborted: boolean; timeoutMs: number },
    elapsed: () => number,
  ): Promise<ToolCallResult> {
    for (let attempt = 0; ; attempt++) {
      let client: Client;
      try {
        client = await untilAborted(this.ensureConnected(), options.signal);
      } catch (error) {
        return failedResult(toCallFailure(error, context(), 'connect'), elapsed());
      }
      const hadSession = this.open?.transport.sessionId !== undefined;
      try {
        const limits = this.requestLimits(options, timeoutMs);
        const raw = await requestToolCall(client, name, args, limits, this.shapes.of(name));
        this.idle.touch();
        // A server that had been answering wrongly answers again: its status says so.
        if (this.state.status === 'error' && this.open) this.setState(this.connectedState(this.open));
        return normalizeCallResult(raw, elapsed());
      } catch (error) {
        if (attempt === 0 && isSessionExpired(error, hadSession) && !options.signal?.aborted) {
          await this.disconnect(false); // The server has no session of ours to end.
          continue; // The session expired: initialize again and retry once.
        }
        const failure = toCallFailure(error, context());
        // A 401 or 403 that refresh could not fix: the person must sign in again.
        if (failure.kind === 'auth-required') {
          this.setState({ status: 'needs-auth', lastError: toConnectionError(error, this.errorContext()) });
          await this.disconnect(false); // A DELETE with the credentials it refused would be refused too.
        }
        // Still reachable, but answering with an HTTP error or something that is not MCP: the server's status
        // shows it (not only the call's card) until a call succeeds or it connects again.
        if ((failure.kind === 'http' || failure.kind === 'invalid-response') && this.open) {
          this.setState({ status: 'error', lastError: toConnectionError(error, this.errorContext()) });
        }
        return failedResult(failure, elapsed());
      }
    }
  }

  /**
   * Checks again a server marked in error while its connection is open (a call was answered wrongly), as Connect
   * does: idle, by connecting afresh; with calls in flight, which closing would break, by listing its tools on the
   * open connection.
   */
  async recheck(): Promise<void> {
    const open = this.open;
    if (this.state.status !== 'error' || !open) return;
    if (this.inFlight === 0) return this.disconnect(); // The next ensureConnected connects afresh.
    try {
      await this.deps.onTools(await this.listAll(open.client), open.client.getInstructions());
      if (this.open === open) this.setState(this.connectedState(open));
    } catch (error) {
      if (this.open === open)
        this.setState({ status: 'error', lastError: toConnectionError(error, this.errorContext()) });
    }
  }

  /**
   * Lists the tools of an open connection again ("Check again" on a connected server: one that sends no list_changed
   * could not be re-read otherwise). A failure is the server's error, as for a list_changed.
   */
  async relist(): Promise<void> {
    const open = this.open;
    if (!open || !open.client.getServerCapabilities()?.tools) return;
    if ((await this.refreshTools()) && this.open === open && this.state.status === 'connected')
      this.setState(this.connectedState(open));
  }

  /**
   * Closes the connection (no reconnect follows), first ending its session on the server unless `endsSession` is false
   * (the server said the session expired, or refused our credentials).
   */
  async disconnect(endsSession = true): Promise<void> {
    this.idle.cancel();
    this.reconnects.cancel();
    const open = this.open;
    this.open = undefined;
    if (open) {
      if (endsSession) await endSession(open);
      await open.client.close().catch(this.closeFailed('on disconnect'));
    }
    if (this.state.status !== 'error' && this.state.status !== 'needs-auth') this.setState({ status: 'disconnected' });
  }

  async dispose(): Promise<void> {
    this.isDisposed = true;
    await this.disconnect();
  }

  private async connect(): Promise<OpenConnection> {
    if (this.isDisposed) throw new Error('This server was removed.');
    // A pending reconnect stays until this connect succeeds: if it fails (a call made while the server is down),
    // the reconnects go on; one that comes due meanwhile joins this connect.
    this.setState({ status: 'connecting' });
    const config = this.config;
    // A tools/list_changed that comes before the connection is open may postdate its first list: listed once open.
    let changedMeanwhile = false;
    let onToolsChanged = () => void (changedMeanwhile = true);
    let isRefusedMeanwhile = false;
    let onStreamRefused = () => void (isRefusedMeanwhile = true);
    try {
      const open = await dialServer(config, this.deps, {
        lastKind: () => this.lastKind,
        onNetworkFailure: () => this.onNetworkFailure(),
        onResponse: () => (this.hasAnswered = true),
        onToolsChanged: () => onToolsChanged(),
        onStreamRefused: () => onStreamRefused(),
        closeFailed: (when) => this.closeFailed(when),
      });
      if (this.isDisposed || config !== this.config) {
        await open.client.close();
        throw new StaleConnectError();
      }
      try {
        // Listing right away fills the SDK's tool cache (output schemas, task support) and our catalog.
        await this.deps.onTools(await this.listAll(open.client), open.client.getInstructions());
      } catch (error) {
        await open.client.close().catch(this.closeFailed('after listing tools failed'));
        throw error;
      }
      this.open = open;
      this.hasConnected = true;
      this.lastKind = open.kind;
      this.reconnects.cancel();
      this.reconnects.reset();
      open.client.onclose = () => this.onClosed(open);
      this.isStreamRefused = isRefusedMeanwhile;
      this.setState(this.connectedState(open));
      onStreamRefused = () => {
        if (this.open !== open) return;
        this.isStreamRefused = true;
        // A status other than connected (an error left by a wrong answer) stays until it is checked again.
        if (this.state.status === 'connected') this.setState(this.connectedState(open));
      };
      this.idle.touch();
      onToolsChanged = () => void this.refreshTools();
      if (changedMeanwhile) onToolsChanged();
      return open;
    } catch (error) {
      if (error instanceof StaleConnectError) throw error; // The new config connects on its own; keep its status.
      const typed = await diagnoseConnectFailure(toConnectionError(error, this.errorContext()), {
        serverUrl: config.url,
        viaRelay: config.viaRelay,
        appOrigin: this.deps.appOrigin,
        relayUrl: this.deps.relayUrl?.(),
        fetch: this.deps.fetch,
        hasConnectedBefore: this.hasConnected,
      });
      this.open = undefined;
      // A connect made for a call (or a turn) while reconnects go on, or after they ran out: the status still says
      // whether the app tries again.
      const willTry = this.reconnects.isPending;
      const shown = ((willTry || this.reconnects.hasRunOut) && withReconnectNote(typed, willTry)) || typed;
      this.setState({ status: typed instanceof AuthRequiredError ? 'needs-auth' : 'error', lastError: shown });
      throw typed;
    }
  }

  /** A call's limits: its timeout, reset by progress (which also keeps the connection from idling), and Stop. */
  private requestLimits(options: CallOptions, timeoutMs: number): ToolRequestLimits {
    return {
      timeoutMs,
      maxTotalMs: this.deps.timing.maxCallMs,
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (progress) => {
        this.idle.touch();
        options.onProgress?.(progress);
      },
    };
  }

  private connectedState(open: OpenConnection): ServerState {
    return {
      status: 'connected',
      transport: open.kind,
      ...(this.isStreamRefused ? { liveUpdates: false } : {}),
      ...(open.client.getServerCapabilities()?.prompts ? { offersPrompts: true } : {}),
    };
  }

  /** Lists every tool and notes how each is called (task support, output schema). */
  private async listAll(client: Client): Promise<ListedTools> {
    this.listedAt = this.deps.now();
    const listed = await listAllTools(client);
    this.shapes.take(listed.tools);
    return listed;
  }

  /**
   * Lists the tools again on the open connection; resolves to whether the list was taken in. A failure keeps the
   * previous catalog and is logged, and noted in the server's log; the connection stays as it was, unless the failure
   * says the session or the connection is gone: then it is the server's error (the next connect lists again).
   */
  private async refreshTools(): Promise<boolean> {
    const open = this.open;
    if (!open) return false;
    const hadSession = open.transport.sessionId !== undefined;
    try {
      await this.deps.onTools(await this.listAll(open.client), open.client.getInstructions());
      return true;
    } catch (error) {
      logFailure(this.deps.logger ?? silentLogger, 'Listing tools failed', { serverId: this.config.id })(error);
      const typed = toConnectionError(error, this.errorContext());
      const kept = `Listing its tools failed, so the tools listed before are kept. ${typed.message}`;
      const isGone = isSessionExpired(error, hadSession) || GONE.has(typed.kind);
      if (!isGone) this.deps.onNote?.('warning', kept);
      else if (this.open === open)
        this.setState({
          status: 'error',
          lastError: typed instanceof McpProtocolError ? new McpProtocolError(typed.code, kept) : typed,
        });
      return false;
    }
  }

  /** Closing is best-effort (the connection is dropped either way); a failure is only logged. */
  private closeFailed(when: string) {
    return logFailure(this.deps.logger ?? silentLogger, `Closing the connection failed ${when}`, {
      serverId: this.config.id,
    });
  }

  /** A request or stream failed at the network level: the server is gone, so fail pending calls now and reconnect. */
  private onNetworkFailure(): void {
    if (!this.open) return;
    const open = this.open;
    this.open = undefined;
    this.setState({ status: 'error', lastError: toConnectionError(new TypeError('network'), this.errorContext()) });
    void open.client.close().catch(this.closeFailed('after the network failed'));
    this.scheduleReconnect();
  }

  private onClosed(open: OpenConnection): void {
    if (this.open !== open) return;
    this.open = undefined;
    this.setState({ status: 'disconnected' });
  }

  private scheduleReconnect(): void {
    if (this.isDisposed) return;
    const willTry = this.reconnects.schedule(() => {
      if (this.open || this.isDisposed) return;
      this.ensureConnected().catch(() => this.scheduleReconnect());
    });
    // The server's error says whether the app goes on trying.
    const restated = this.state.status === 'error' ? withReconnectNote(this.state.lastError, willTry) : undefined;
    if (restated) this.setState({ status: 'error', lastError: restated });
  }

  private errorContext(): ErrorContext {
    return { serverUrl: this.config.url, appOrigin: this.deps.appOrigin, hasAnswered: this.hasAnswered };
  }

  private setState(state: ServerState): void {
    this.state = state;
    this.deps.onState(state);
  }
}
