import { useMemo } from 'react';
import type { PromptActions, PromptsStore, ServerPrompts } from '../../../stores/prompts-store';
import { useStoreIfAny } from '../../hooks/use-store';
import type { SlashMenuSource } from './slash-menu';

const NO_LISTINGS: Readonly<Record<string, ServerPrompts>> = {};

/** The composer's `/` source for the thread's servers: their prompts as listed, loading and failures. */
export function usePromptMenu(
  prompts: { readonly store: PromptsStore; readonly actions: PromptActions } | undefined,
  serverIds: readonly string[],
): SlashMenuSource | undefined {
  const byServer = useStoreIfAny(prompts?.store, (s) => s.byServer, NO_LISTINGS);
  return useMemo(() => {
    if (!prompts) return undefined;
    const listings = serverIds.map((id) => byServer[id]);
    return {
      // byServer is read so that a new listing makes a new source (and the list shows it).
      options: (query: string) => (byServer ? prompts.actions.options(serverIds, query) : []),
      isLoading: listings.some((l) => l?.status === 'loading'),
      problems: listings.flatMap((l) => (l?.status === 'failed' ? [l.message] : [])),
      onOpen: () => void prompts.actions.refresh(serverIds),
      onPick: (option) => prompts.actions.choose(option.prompt),
    };
  }, [prompts, serverIds, byServer]);
}
