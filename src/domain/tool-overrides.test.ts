import { describe, expect, it } from 'vitest';
import { layerToolOverride, normalizedOverride, sameToolOverrides } from './tool-overrides';

describe('the "from code" setting of a tool', () => {
  it('is off when the deployer or the person says so; the person cannot allow what the deployer keeps from code', () => {
    expect(layerToolOverride({ callableFromCode: false }, { callableFromCode: true })).toEqual({
      callableFromCode: false,
    });
    expect(layerToolOverride(undefined, { callableFromCode: false })).toEqual({ callableFromCode: false });
    expect(layerToolOverride({ description: 'App words' }, { callableFromCode: false })).toEqual({
      callableFromCode: false,
      description: 'App words',
    });
  });

  it('is stored only when off, and counts as a change', () => {
    expect(normalizedOverride({ callableFromCode: true })).toBeUndefined();
    expect(normalizedOverride({ callableFromCode: false })).toEqual({ callableFromCode: false });
    expect(sameToolOverrides({ add: { callableFromCode: false } }, { add: {} })).toBe(false);
  });
});
