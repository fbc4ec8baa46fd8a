import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { mirrorTheme, THEME_MIRROR_KEY, type ThemeMirrorStorage } from './theme-mirror';

const BOOT_SCRIPT = readFileSync(new URL('../../public/theme-boot.js', import.meta.url), 'utf8');

function memoryStorage(): ThemeMirrorStorage & { readonly items: Map<string, string>; writes: number } {
  const items = new Map<string, string>();
  return {
    items,
    writes: 0,
    getItem: (key) => items.get(key) ?? null,
    setItem(key, value) {
      this.writes++;
      items.set(key, value);
    },
  };
}

/** Runs public/theme-boot.js as the page would, before anything else; resolves to <html data-theme>. */
function bootTheme(localStorage: ThemeMirrorStorage | (() => never)): string | undefined {
  const dataset: Record<string, string> = {};
  const window =
    typeof localStorage === 'function'
      ? Object.defineProperty({}, 'localStorage', { get: localStorage })
      : { localStorage };
  runInNewContext(BOOT_SCRIPT, { window, document: { documentElement: { dataset } } });
  return dataset.theme;
}

describe('the theme copy for the first paint', () => {
  it('public/theme-boot.js applies what the app copied, under the same key; "system" leaves the page to the OS', () => {
    const storage = memoryStorage();
    expect(bootTheme(storage)).toBeUndefined();
    for (const theme of ['dark', 'light'] as const) {
      mirrorTheme(() => storage, theme);
      expect(storage.items.get(THEME_MIRROR_KEY)).toBe(theme);
      expect(bootTheme(storage)).toBe(theme);
    }
    mirrorTheme(() => storage, 'system');
    expect(bootTheme(storage)).toBeUndefined();
  });

  it('ignores anything else under the key, and storage that is blocked', () => {
    const storage = memoryStorage();
    storage.items.set(THEME_MIRROR_KEY, '"><script>');
    expect(bootTheme(storage)).toBeUndefined();
    expect(
      bootTheme(() => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      }),
    ).toBeUndefined();
  });

  it('writes only when the theme changed, and never throws (storage blocked or full)', () => {
    const storage = memoryStorage();
    mirrorTheme(() => storage, 'dark');
    mirrorTheme(() => storage, 'dark');
    expect(storage.writes).toBe(1);
    expect(() => mirrorTheme(() => undefined, 'dark')).not.toThrow();
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() => mirrorTheme(() => full, 'light')).not.toThrow();
    expect(() =>
      mirrorTheme(() => {
        throw new DOMException('blocked', 'SecurityError');
      }, 'light'),
    ).not.toThrow();
  });
});
