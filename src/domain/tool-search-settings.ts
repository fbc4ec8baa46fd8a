import { z } from 'zod';

function wholeNumber(label: string, min: number, max: number) {
  const message = `${label} must be a whole number from ${min} to ${max}`;
  return z
    .number({ error: () => message })
    .int(message)
    .min(min, message)
    .max(max, message);
}

const fields = {
  /**
   * client: this app's search picks the tools each call carries; anthropic: every tool sent with defer_loading, this
   * app's search answers with tool_reference blocks the API expands; server: every tool deferred, the API's own tool
   * search tool finds them.
   */
  mode: z.enum(['client', 'anthropic', 'server'], {
    error: () => 'Tool search mode must be client, anthropic or server',
  }),
  strategy: z.enum(['bm25', 'regex'], { error: () => 'Search strategy must be bm25 or regex' }),
  /** auto: defer only when the enabled tools are many or large; always / never force it. */
  deferral: z.enum(['auto', 'always', 'never'], { error: () => 'Deferral must be auto, always or never' }),
  preloadCount: wholeNumber('Preload count', 0, 20),
  loadedToolCap: wholeNumber('Loaded-tool cap', 1, 200),
};

/** How tool definitions reach the model; defaults the app config may change and a profile may override. */
export const ToolSearchSettings = z.object({
  mode: fields.mode.default('client'),
  strategy: fields.strategy.default('bm25'),
  deferral: fields.deferral.default('auto'),
  preloadCount: fields.preloadCount.default(3),
  loadedToolCap: fields.loadedToolCap.default(20),
});
export type ToolSearchSettings = z.infer<typeof ToolSearchSettings>;

/** A profile's own choices; a field left out keeps the app config's default. */
export const ToolSearchOverrides = z.object({
  mode: fields.mode.optional(),
  strategy: fields.strategy.optional(),
  deferral: fields.deferral.optional(),
  preloadCount: fields.preloadCount.optional(),
  loadedToolCap: fields.loadedToolCap.optional(),
});
export type ToolSearchOverrides = z.infer<typeof ToolSearchOverrides>;

/** A thread's own choices (mode, strategy, deferral, preload count); a field left out keeps the profile's or app's. */
export const ThreadToolSearchOverrides = ToolSearchOverrides.pick({
  mode: true,
  strategy: true,
  deferral: true,
  preloadCount: true,
});
export type ThreadToolSearchOverrides = z.infer<typeof ThreadToolSearchOverrides>;

export type Deferral = ToolSearchSettings['deferral'];

/**
 * `defaults.deferLoading` in app-config.json, the design's name for the app's deferral: true always defers, false
 * never does, "auto" defers when the tools are many or large.
 */
export const DeferLoading = z.union([z.boolean(), z.literal('auto')], {
  error: () => 'deferLoading must be true (always defer), false (never defer) or "auto"',
});
export type DeferLoading = z.infer<typeof DeferLoading>;

/** The deferral that a `deferLoading` value stands for. */
export function deferralOf(deferLoading: DeferLoading): Deferral {
  return deferLoading === 'auto' ? 'auto' : deferLoading ? 'always' : 'never';
}

/** One model call's own choice (the call tier): wins over the thread's, the profile's and the app's. */
export interface CallToolSearchOverrides {
  readonly deferral?: Deferral;
}

/** The overrides without keys set to undefined, so that such a key never hides the layer below. */
export function definedOverrides(overrides: ToolSearchOverrides | undefined): ToolSearchOverrides {
  return Object.fromEntries(Object.entries(overrides ?? {}).filter(([, value]) => value !== undefined));
}

/**
 * The settings a turn uses: the app's defaults, then the profile's overrides, then the thread's, then (for one call)
 * the call's: later layers win, as the design's tiers say (call over thread over user over app).
 */
export function resolveToolSearchSettings(
  defaults: ToolSearchSettings,
  ...overrides: (ToolSearchOverrides | undefined)[]
): ToolSearchSettings {
  return ToolSearchSettings.parse(Object.assign({}, defaults, ...overrides.map(definedOverrides)));
}
