import { describe, expect, it } from 'vitest';
import { AppConfig } from './app-config';
import { resolveToolSearchSettings, ThreadToolSearchOverrides, ToolSearchSettings } from './tool-search-settings';
import { UserPreferences } from './user-config';

const appDefaults = ToolSearchSettings.parse({ deferral: 'always', preloadCount: 0 });

describe('resolveToolSearchSettings', () => {
  it('layers app defaults < profile overrides < thread overrides', () => {
    expect(resolveToolSearchSettings(appDefaults, { preloadCount: 5, strategy: 'regex' }, { preloadCount: 7 })).toEqual(
      {
        mode: 'client',
        strategy: 'regex',
        deferral: 'always',
        preloadCount: 7,
        loadedToolCap: 20,
      },
    );
  });

  it('a key stored as undefined keeps the app default instead of the built-in one', () => {
    expect(resolveToolSearchSettings(appDefaults, { deferral: undefined, preloadCount: undefined })).toMatchObject({
      deferral: 'always',
      preloadCount: 0,
    });
  });
});

describe('deferral through the tiers: call over thread over user over app (issue #24 item 3)', () => {
  const app = AppConfig.parse({ defaults: { deferLoading: true } }).defaults.toolSearch;

  it('app: defaults.deferLoading true always defers, false never, "auto" by size; absent keeps toolSearch.deferral', () => {
    expect(app.deferral).toBe('always');
    expect(AppConfig.parse({ defaults: { deferLoading: false } }).defaults.toolSearch.deferral).toBe('never');
    expect(
      AppConfig.parse({ defaults: { deferLoading: 'auto', toolSearch: { deferral: 'never' } } }).defaults.toolSearch
        .deferral,
    ).toBe('auto');
    expect(AppConfig.parse({ defaults: { toolSearch: { deferral: 'never' } } }).defaults.toolSearch.deferral).toBe(
      'never',
    );
    expect(resolveToolSearchSettings(app).deferral).toBe('always');
  });

  it('user over app', () => {
    expect(resolveToolSearchSettings(app, { deferral: 'never' }).deferral).toBe('never');
  });

  it('thread over user, and a thread that says nothing keeps the user’s', () => {
    expect(resolveToolSearchSettings(app, { deferral: 'never' }, { deferral: 'auto' }).deferral).toBe('auto');
    expect(resolveToolSearchSettings(app, { deferral: 'never' }, { preloadCount: 1 }).deferral).toBe('never');
  });

  it('call over thread, and a call that says nothing keeps the thread’s', () => {
    const thread = resolveToolSearchSettings(app, { deferral: 'never' }, { deferral: 'auto' });
    expect(resolveToolSearchSettings(thread, { deferral: 'always' }).deferral).toBe('always');
    expect(resolveToolSearchSettings(thread, {}).deferral).toBe('auto');
  });

  it('refuses a wrong value at each stored tier with a message naming the field', () => {
    const appIssue = AppConfig.safeParse({ defaults: { deferLoading: 'sometimes' } }).error?.issues[0];
    expect(appIssue?.path).toEqual(['defaults', 'deferLoading']);
    expect(appIssue?.message).toBe('deferLoading must be true (always defer), false (never defer) or "auto"');
    const userIssue = UserPreferences.safeParse({ toolSearch: { deferral: 'often' } }).error?.issues[0];
    expect(userIssue).toMatchObject({
      path: ['toolSearch', 'deferral'],
      message: 'Deferral must be auto, always or never',
    });
    const threadIssue = ThreadToolSearchOverrides.safeParse({ deferral: true }).error?.issues[0];
    expect(threadIssue).toMatchObject({ path: ['deferral'], message: 'Deferral must be auto, always or never' });
  });
});
