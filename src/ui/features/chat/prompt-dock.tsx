import { useEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { setDraft, type DraftStore } from '../../../stores/draft';
import type { PromptActions, PromptsStore, ServerPrompts } from '../../../stores/prompts-store';
import type { ServerView } from '../../../stores/servers-store';
import { useStoreIfAny } from '../../hooks/use-store';
import { PromptForm } from './prompt-form';
import type { SlashMenuSource } from './slash-menu';

const NO_LISTINGS: Readonly<Record<string, ServerPrompts>> = {};

export type PromptsHandle = { readonly store: PromptsStore; readonly actions: PromptActions };

/**
 * The composer's `/` prompts for the thread's enabled servers (their listings, loading and failures), and the form of
 * the prompt picked, above the composer. When the form closes, the keyboard goes back to the message box. The form
 * belongs to the thread it was opened in: it closes when another thread opens or its server is switched off here.
 */
export function usePromptDock(
  prompts: PromptsHandle | undefined,
  threadId: string | undefined,
  enabledServerIds: readonly string[] | undefined,
  servers: readonly ServerView[],
  draft: DraftStore,
  box: RefObject<HTMLTextAreaElement | null>,
  isTurnRunning: boolean,
): { slashMenu: SlashMenuSource | undefined; form: ReactNode } {
  const serverIds = useMemo(
    () => (enabledServerIds ?? []).filter((id) => servers.some((s) => s.id === id && s.config.enabled)),
    [enabledServerIds, servers],
  );
  const byServer = useStoreIfAny(prompts?.store, (s) => s.byServer, NO_LISTINGS);
  const chosen = useStoreIfAny(prompts?.store, (s) => s.chosen, undefined);
  const slashMenu = useMemo((): SlashMenuSource | undefined => {
    if (!prompts) return undefined;
    const listings = serverIds.map((id) => byServer[id]);
    return {
      options: (query) => prompts.actions.options(serverIds, query),
      hasPrompts: servers.some((s) => s.offersPrompts && serverIds.includes(s.id)),
      isLoading: listings.some((l) => l?.status === 'loading'),
      problems: listings.flatMap((l) => (l?.status === 'failed' ? [l.message] : [])),
      onOpen: () => void prompts.actions.refresh(serverIds),
      onPick: (option) => prompts.actions.choose(option.prompt, threadId),
    };
  }, [prompts, serverIds, byServer, servers, threadId]);
  const isElsewhere =
    chosen !== undefined && (chosen.threadId !== threadId || !serverIds.includes(chosen.prompt.serverId));
  useEffect(() => {
    if (isElsewhere) prompts?.actions.cancel();
  }, [isElsewhere, prompts]);
  const hadForm = useRef(false);
  useEffect(() => {
    if (hadForm.current && !chosen) box.current?.focus();
    hadForm.current = chosen !== undefined;
  }, [chosen, box]);
  const form =
    chosen && prompts && !isElsewhere ? (
      <PromptForm
        chosen={chosen}
        actions={prompts.actions}
        onInsert={(text) => setDraft(draft, text)}
        isTurnRunning={isTurnRunning}
      />
    ) : null;
  return { slashMenu, form };
}
