import type { UserPreferences } from '../domain/user-config';

/**
 * The localStorage key under which the open profile's theme is copied, for public/theme-boot.js to apply before the
 * first paint (IndexedDB, where the profile is, cannot be read that early). A theme name only; nothing secret.
 */
export const THEME_MIRROR_KEY = 'mcp-agent.theme';

/** The part of Web Storage the mirror uses. */
export type ThemeMirrorStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Copies the profile's theme for the next page load; never throws (storage blocked or full only costs that copy). */
export function mirrorTheme(storage: () => ThemeMirrorStorage | undefined, theme: UserPreferences['theme']): void {
  try {
    const target = storage();
    if (target && target.getItem(THEME_MIRROR_KEY) !== theme) target.setItem(THEME_MIRROR_KEY, theme);
  } catch {
    // Without the copy the next load paints the system's theme until the profile is read, as before.
  }
}
