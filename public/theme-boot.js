// Before the first paint: the open profile's theme as the app last copied it (src/platform/theme-mirror.ts).
// The profile in IndexedDB stays the source of truth; the app applies it, and corrects this copy, once read.
(function () {
  try {
    const theme = window.localStorage.getItem('mcp-agent.theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  } catch {
    // Storage blocked: the system's theme until the profile is read.
  }
})();
