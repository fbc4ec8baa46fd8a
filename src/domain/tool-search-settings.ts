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

/** A thread's own choices (mode, strategy, preload count); a field left out keeps the profile's or app's value. */
export const ThreadToolSearchOverrides = ToolSearchOverrides.pick({ mode: true, strategy: true, preloadCount: true });
export type ThreadToolSearchOverrides = z.infer<typeof ThreadToolSearchOverrides>;

/** The overrides without keys set to undefined, so that such a key never hides the layer below. */
export function definedOverrides(overrides: ToolSearchOverrides | undefined): ToolSearchOverrides {
  return Object.fromEntries(Object.entries(overrides ?? {}).filter(([, value]) => value !== undefined));
}

/** The settings a turn uses: the app's defaults, then the profile's overrides, then the thread's (later layers win). */
export function resolveToolSearchSettings(
  defaults: ToolSearchSettings,
  ...overrides: (ToolSearchOverrides | undefined)[]
): ToolSearchSettings {
  return ToolSearchSettings.parse(Object.assign({}, defaults, ...overrides.map(definedOverrides)));
}
