import { useEffect, useState } from 'react';

export type AppTheme = 'light' | 'dark';

/** The page's theme now: the profile's choice on <html data-theme>, else the system's. */
function pageTheme(): AppTheme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Follows the page's theme (the profile's choice or the system's), for the apps' host context. */
export function usePageTheme(): AppTheme {
  const [theme, setTheme] = useState(pageTheme);
  useEffect(() => {
    const update = () => setTheme(pageTheme());
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', update);
    return () => {
      observer.disconnect();
      media.removeEventListener('change', update);
    };
  }, []);
  return theme;
}

/** Whether the element is within about two screens of the viewport (an app far out of view is torn down). */
export function useIsNearView(element: HTMLElement | null): boolean {
  const [isNear, setIsNear] = useState(true);
  useEffect(() => {
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setIsNear(entries.some((e) => e.isIntersecting)), {
      rootMargin: '200% 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return isNear;
}
