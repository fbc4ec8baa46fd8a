import { z } from 'zod';
import { ServerConfig, checkUniqueServers } from './server-config';
import { DEFAULT_PRICES, PriceTable } from './pricing';
import { ToolSearchSettings } from './tool-search-settings';

export const DEFAULT_MODEL = 'claude-sonnet-5';
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Compact when a request would pass 75% of the model's context window (issue #17). */
export const DEFAULT_COMPACT_AT_SHARE = 0.75;

const HttpsUrl = z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL' });

/** What the deployer ships in public/app-config.json: servers every user gets and defaults. */
export const AppConfig = z
  .object({
    servers: z.array(ServerConfig).default([]),
    defaults: z
      .object({
        model: z.string().min(1).default(DEFAULT_MODEL),
        baseUrl: HttpsUrl.default(DEFAULT_BASE_URL),
        maxTokens: z.number().int().min(1).max(128_000).default(8192),
        toolSearch: ToolSearchSettings.default(ToolSearchSettings.parse({})),
        /** Dollars per million tokens by model id (`prefix*` keys match a family); replaces the built-in table. */
        prices: PriceTable.default(DEFAULT_PRICES),
        /** Compact a thread's model context when a request would pass this share of the context window. */
        compactAtShare: z.number().min(0.2).max(0.95).default(DEFAULT_COMPACT_AT_SHARE),
      })
      .default({
        model: DEFAULT_MODEL,
        baseUrl: DEFAULT_BASE_URL,
        maxTokens: 8192,
        toolSearch: ToolSearchSettings.parse({}),
        prices: DEFAULT_PRICES,
        compactAtShare: DEFAULT_COMPACT_AT_SHARE,
      }),
    oauth: z
      .object({
        /** URL of the OAuth client metadata document this deployment serves (for servers that accept one). */
        clientMetadataUrl: HttpsUrl.optional(),
      })
      .default({}),
  })
  .superRefine((config, ctx) => checkUniqueServers(config.servers, ctx, ['servers']));
export type AppConfig = z.infer<typeof AppConfig>;

/** The configuration used when no app-config.json is deployed or it is invalid. */
export const EMPTY_APP_CONFIG: AppConfig = AppConfig.parse({});
