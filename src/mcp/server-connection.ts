import { logFailure, silentLogger } from '../domain/logger';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AuthRequiredError, withReconnectNote } from '../domain/mcp-errors';
import type { ServerConfig } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import type { ToolCallResult } from '../domain/tool-result';
import { toConnectionError, type ErrorContext } from './classify-error';
import { endSession, type OpenConnection, type TransportKind } from './connect';
import { dialServer } from './dial-server';
import { diagnoseConnectFailure } from './relay-client';
import { StaleConnectError } from './async-limits';
import { callOverConnection, type CallHost } from './connection-calls';
import { IdleTimer, ReconnectBackoff } from './connection-timers';
import { ConnectionTools } from './connection-tools';
import type { CallOptions, ServerConnectionDeps } from './server-connection-deps';

/**
 * One server's connection: lazy connect, drop detection and reconnects; its tool listing (connection-tools.ts) and
 * its calls that never throw (connection-calls.ts) run over it.
 */
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
  /** The listing of its tools, and what their definitions say of calling them (connection-tools.ts). */
  private readonly tools = new ConnectionTools({
    deps: () => this.deps,
    serverId: () => this.config.id,
    open: () => this.open,
    errorContext: () => this.errorContext(),
    setState: (state) => this.setState(state),
  });

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
      if (this.isStreamRefused && this.deps.now() - this.tools.listedAt >= this.deps.timing.relistWithoutStreamMs)
        await this.tools.refresh();
      if (this.open) return this.open.client;
    }
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return (await this.connecting).client;
  }

  /** Lists every tool, following pagination cursors (bounded, in case a server repeats them); invalid ones left out. */
  async listTools(): Promise<Tool[]> {
    const client = await this.ensureConnected();
    return (await this.tools.listAll(client)).tools;
  }

  /** Calls a tool. Never throws: every failure comes back as a result with `failure` set. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolCallResult> {
    this.inFlight++;
    try {
      return await callOverConnection(this.callHost, name, args, options);
    } finally {
      this.inFlight--;
      this.idle.touch();
    }
  }

  /** What the tool calls (connection-calls.ts) use of this connection. */
  private readonly callHost: CallHost = {
    deps: () => this.deps,
    state: () => this.state,
    open: () => this.open,
    touch: () => this.idle.touch(),
    shapeOf: (name) => this.tools.shapes.of(name),
    ensureConnected: () => this.ensureConnected(),
    disconnect: (endsSession) => this.disconnect(endsSession),
    connectedState: (open) => this.connectedState(open),
    errorContext: () => this.errorContext(),
    setState: (state) => this.setState(state),
  };

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
      await this.deps.onTools(await this.tools.listAll(open.client), open.client.getInstructions());
      if (this.open === open) this.setState(this.connectedState(open));
    } catch (error) {
      if (this.open === open)
        this.setState({ status: 'error', lastError: toConnectionError(error, this.errorContext()) });
    }
  }

  /**
   * Lists the tools of an open connection again ("Check again" on a connected server: one that sends no list_changed
   * could not be re-read otherwise). A failure keeps the tools listed before, with a warning, as for a list_changed.
   */
  async relist(): Promise<void> {
    const open = this.open;
    if (!open || !open.client.getServerCapabilities()?.tools) return;
    if ((await this.tools.refresh()) && this.open === open && this.state.status === 'connected')
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
        await this.deps.onTools(await this.tools.listAll(open.client), open.client.getInstructions());
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
      onToolsChanged = () => void this.tools.refresh();
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

  private connectedState(open: OpenConnection): ServerState {
    return {
      status: 'connected',
      transport: open.kind,
      ...(this.isStreamRefused ? { liveUpdates: false } : {}),
      ...(open.client.getServerCapabilities()?.prompts ? { offersPrompts: true } : {}),
    };
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
