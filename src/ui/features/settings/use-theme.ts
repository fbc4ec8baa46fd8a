import { useEffect } from 'react';
import type { Theme } from '../../../stores/settings';

/** Puts the profile's theme on <html data-theme>, where styles.css picks the palette; "system" follows the OS. */
export function useApplyTheme(theme: Theme | undefined): void {
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
    else delete root.dataset.theme;
  }, [theme]);
}
