import { useEffect, useMemo, useRef } from 'react';
import type { SettingsDraft } from '../settings/model-settings-form';

/**
 * What was typed in Settings' model form and not saved, kept while the panel is closed (a look at Servers on first
 * run must not cost the key being typed), for the settings it was typed in; in memory only, and without the key once
 * the vault locks.
 */
export function useSettingsDraft(owner: unknown, isLocked: boolean) {
  const kept = useRef<{ readonly owner: unknown; readonly draft: SettingsDraft }>(undefined);
  useEffect(() => {
    if (isLocked && kept.current) kept.current = { ...kept.current, draft: { ...kept.current.draft, apiKey: '' } };
  }, [isLocked]);
  return useMemo(
    () => ({
      read: () => {
        const current = kept.current;
        return current && current.owner === owner ? current.draft : undefined;
      },
      keep: (draft: SettingsDraft | undefined) => {
        kept.current = draft && { owner, draft };
      },
    }),
    [owner],
  );
}
