import { describe, expect, it } from 'vitest';
import { appContextSection, MAX_APP_CONTEXTS, withAppContext } from './app-context';

describe("the thread's apps' context", () => {
  it('keeps the latest of each app and, past the limit, drops the app that spoke longest ago', () => {
    let contexts = withAppContext(undefined, 'a', 'first');
    for (let i = 1; i < MAX_APP_CONTEXTS; i++) contexts = withAppContext(contexts, `app${i}`, `says ${i}`);
    contexts = withAppContext(contexts, 'a', 'again'); // "a" speaks again: now the newest
    contexts = withAppContext(contexts, 'late', 'late word'); // one too many: app1, the oldest now, goes
    expect(Object.keys(contexts)).toHaveLength(MAX_APP_CONTEXTS);
    expect(contexts.a).toBe('again');
    expect(contexts.app1).toBeUndefined();
    expect(contexts.late).toBe('late word');
  });

  it("gives no section when no app said anything, and one marked as the apps' words otherwise", () => {
    expect(appContextSection(undefined)).toBeUndefined();
    expect(appContextSection(withAppContext({ a: 'x' }, 'a', '  '))).toBeUndefined();
    expect(appContextSection({ a: 'Die shows 4.' })).toMatch(/their own words, not the person's\):\n\nDie shows 4\.$/);
  });
});
