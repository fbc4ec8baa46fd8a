import { z } from 'zod';

/** How tool definitions reach the model; defaults the app config may change and a profile may override. */
export const ToolSearchSettings = z.object({
  /** client: our BM25 search picks tools; anthropic: send all with defer_loading and let the API expand them. */
  mode: z.enum(['client', 'anthropic']).default('client'),
  strategy: z.enum(['bm25', 'regex']).default('bm25'),
  /** auto: defer only when the enabled tools are many or large; always / never force it. */
  deferral: z.enum(['auto', 'always', 'never']).default('auto'),
  preloadCount: z.number().int().min(0).max(20).default(3),
  loadedToolCap: z.number().int().min(1).max(200).default(20),
});
export type ToolSearchSettings = z.infer<typeof ToolSearchSettings>;
