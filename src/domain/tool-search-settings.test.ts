import { describe, expect, it } from 'vitest';
import { resolveToolSearchSettings, ToolSearchSettings } from './tool-search-settings';

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
