import { useEffect } from 'react';
import type { Theme } from '../../../stores/settings';

/**
 * Puts the profile's theme on <html data-theme>, where styles.css picks the palette; "system" follows the OS.
 * Until the profile is read (undefined), the theme public/theme-boot.js applied before the first paint stays.
 */
export function useApplyTheme(theme: Theme | undefined): void {
  useEffect(() => {
    if (theme === undefined) return;
    const root = document.documentElement;
    if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
    else delete root.dataset.theme;
  }, [theme]);
}
