/** The names the Settings screen gives the profile's preferences, keyed as stored ("toolSearch.preloadCount"). */
const NAMES: Record<string, string> = {
  model: 'Model',
  baseUrl: 'Base URL',
  maxTokens: 'Maximum answer length (tokens)',
  theme: 'Theme',
  relayUrl: 'Relay URL',
  toolSearch: 'Tool search',
  'toolSearch.mode': 'Tool search mode',
  'toolSearch.strategy': 'Search strategy',
  'toolSearch.deferral': 'Deferral',
  'toolSearch.preloadCount': 'Preload count',
  'toolSearch.loadedToolCap': 'Loaded-tool cap',
};

/** A preference as a person knows it from Settings; an unknown key is shown as it is, quoted. */
export function preferenceName(key: string): string {
  return NAMES[key] ?? `Setting "${key}"`;
}
