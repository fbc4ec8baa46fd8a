import { createStore, type StoreApi } from 'zustand/vanilla';
import { promptAsText, promptTurnMessages } from '../domain/prompt-blocks';
import { promptLabel, type PromptInfo } from '../domain/prompts';
import type { Registry } from '../mcp/registry';
import type { ChatActions } from './chat-store';
import { UNCOUNTED, type CountAsCall } from './server-calls';

/** A server's prompts as last listed, or why they could not be. */
export type ServerPrompts =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly prompts: readonly PromptInfo[] }
  | { readonly status: 'failed'; readonly message: string };

/** The prompt the person picked, its arguments as typed, and the server's suggestions for each. */
export interface ChosenPrompt {
  readonly prompt: PromptInfo;
  /** The thread it was picked in: the form is that thread's. */
  readonly threadId?: string;
  readonly values: Readonly<Record<string, string>>;
  readonly suggestions: Readonly<Record<string, readonly string[]>>;
  readonly isRunning: boolean;
  /** The server's error, or the arguments still missing. */
  readonly error?: string;
}

export interface PromptsState {
  readonly byServer: Readonly<Record<string, ServerPrompts>>;
  readonly chosen?: ChosenPrompt;
}

export type PromptsStore = StoreApi<PromptsState>;

/** One entry of the `/` list. */
export interface PromptOption {
  readonly key: string;
  readonly label: string;
  readonly detail: string;
  readonly prompt: PromptInfo;
}

export interface PromptActions {
  /** Lists the prompts of these servers that are not listed yet (or changed since). */
  refresh(serverIds: readonly string[]): Promise<void>;
  /** The `/` choices of these servers, filtered by what follows the `/`. */
  options(serverIds: readonly string[], query: string): PromptOption[];
  choose(prompt: PromptInfo, threadId?: string): void;
  /** Sets an argument and asks the server for completions of it. */
  setValue(name: string, value: string): Promise<void>;
  /** Gets the prompt's messages: `insert` resolves to the text for the message box; `send` sends them as the turn. */
  run(mode: 'insert' | 'send'): Promise<string | undefined>;
  cancel(): void;
}

const MAX_OPTIONS = 50;

/** Said in the prompt's form when its turn could not start. */
export const PROMPT_NOT_SENT =
  'Not sent: Claude is answering in this thread (here or in another tab). Send the prompt again once that answer ends.';

/**
 * The `/` prompts of the thread's servers: listing (cached, refreshed on prompts/list_changed), arguments, running.
 * A prompt's prompts/get counts as a request for the thread it was picked in (`countAsCall`), so its server may ask
 * the person there meanwhile; its completions, sent as the person types, do not.
 */
export function createPrompts(
  registry: Pick<Registry, 'listPrompts' | 'getPrompt' | 'completePromptArgument' | 'subscribe'>,
  chat: Pick<ChatActions, 'sendPrompt'>,
  countAsCall: CountAsCall = UNCOUNTED,
): { store: StoreApi<PromptsState>; actions: PromptActions; dispose: () => void } {
  const store = createStore<PromptsState>(() => ({ byServer: {} }));
  // Counts the forms opened and closed: a run whose form closed meanwhile drops what the server gave.
  let picks = 0;
  const forget = (serverId: string) => {
    const { [serverId]: _gone, ...rest } = store.getState().byServer;
    store.setState({ byServer: rest });
  };
  // A server that changed its prompts, reconnected or went away is listed again the next time `/` opens.
  const unsubscribe = registry.subscribe((event) => {
    if (event.type === 'prompts' || event.type === 'registered' || event.type === 'unregistered')
      forget(event.serverId);
    if (event.type === 'status' && event.state.status !== 'connected') forget(event.serverId);
  });
  const setChosen = (change: Partial<ChosenPrompt>) => {
    const chosen = store.getState().chosen;
    if (chosen) store.setState({ chosen: { ...chosen, ...change } });
  };

  const actions: PromptActions = {
    async refresh(serverIds) {
      const missing = serverIds.filter((id) => !store.getState().byServer[id]);
      if (missing.length === 0) return;
      const set = (id: string, value: ServerPrompts) =>
        store.setState({ byServer: { ...store.getState().byServer, [id]: value } });
      for (const id of missing) set(id, { status: 'loading' });
      await Promise.all(
        missing.map(async (id) => {
          const listing = await registry.listPrompts(id);
          set(
            id,
            listing.ok ? { status: 'ready', prompts: listing.prompts } : { status: 'failed', message: listing.message },
          );
        }),
      );
    },
    options(serverIds, query) {
      const q = query.toLowerCase();
      const all = serverIds.flatMap((id) => {
        const listed = store.getState().byServer[id];
        return listed?.status === 'ready' ? listed.prompts : [];
      });
      const matches = (prompt: PromptInfo) =>
        !q || prompt.name.toLowerCase().includes(q) || promptLabel(prompt).toLowerCase().includes(q);
      return all
        .filter(matches)
        .slice(0, MAX_OPTIONS)
        .map((prompt) => ({
          key: `${prompt.serverId}:${prompt.name}`,
          label: promptLabel(prompt),
          detail: [prompt.serverName, prompt.description].filter(Boolean).join(' · '),
          prompt,
        }));
    },
    choose(prompt, threadId) {
      picks++;
      store.setState({
        chosen: { prompt, ...(threadId ? { threadId } : {}), values: {}, suggestions: {}, isRunning: false },
      });
      // Suggestions for each argument from the start, before anything is typed.
      for (const arg of prompt.arguments) void actions.setValue(arg.name, '');
    },
    async setValue(name, value) {
      const chosen = store.getState().chosen;
      if (!chosen) return;
      const values = { ...chosen.values, [name]: value };
      setChosen({ values });
      const { [name]: _self, ...context } = values;
      const filled = Object.fromEntries(Object.entries(context).filter(([, v]) => v !== ''));
      const { serverId } = chosen.prompt;
      // Not counted as the thread's request: sent at each key, a question during it would stack up forms.
      const found = await registry.completePromptArgument(serverId, chosen.prompt.name, { name, value }, filled);
      const now = store.getState().chosen;
      // An answer to an older value (typing went on) is dropped.
      if (now?.prompt !== chosen.prompt || now.values[name] !== value) return;
      setChosen({ suggestions: { ...now.suggestions, [name]: found.filter((v) => v !== value) } });
    },
    async run(mode) {
      const chosen = store.getState().chosen;
      if (!chosen || chosen.isRunning) return undefined;
      const missing = chosen.prompt.arguments.filter((a) => a.isRequired && !chosen.values[a.name]?.trim());
      if (missing.length > 0) {
        setChosen({ error: `Fill in ${missing.map((a) => a.title ?? a.name).join(', ')} first.` });
        return undefined;
      }
      setChosen({ isRunning: true, error: undefined });
      const picked = picks;
      const args = Object.fromEntries(Object.entries(chosen.values).filter(([, v]) => v !== ''));
      const { serverId } = chosen.prompt;
      const reading = await countAsCall(serverId, chosen.threadId, () =>
        registry.getPrompt(serverId, chosen.prompt.name, args),
      );
      // Closed meanwhile (the person cancelled it, or opened another thread): its messages go nowhere.
      if (picks !== picked) return undefined;
      if (!reading.ok) {
        setChosen({ isRunning: false, error: reading.message });
        return undefined;
      }
      if (reading.messages.length === 0) {
        setChosen({ isRunning: false, error: `${chosen.prompt.serverName} gave the prompt with no messages.` });
        return undefined;
      }
      if (mode === 'insert') {
        const text = promptAsText(reading.messages);
        if (text === undefined) {
          setChosen({
            isRunning: false,
            error:
              'This prompt holds more than your text (images, resources or answers): send it as the turn to keep them.',
          });
          return undefined;
        }
        store.setState({ chosen: undefined });
        return text;
      }
      store.setState({ chosen: undefined });
      const isSent = await chat.sendPrompt(promptTurnMessages(reading.messages), promptLabel(chosen.prompt));
      // Refused (a turn began in the thread meanwhile, here or in another tab): the form comes back as it was filled.
      if (!isSent && picks === picked && store.getState().chosen === undefined)
        store.setState({ chosen: { ...chosen, isRunning: false, error: PROMPT_NOT_SENT } });
      return undefined;
    },
    cancel() {
      picks++;
      store.setState({ chosen: undefined });
    },
  };
  return { store, actions, dispose: unsubscribe };
}
