import { z } from 'zod';
import { ServerConfig, ServerId, checkUniqueServers, serverUrlProblem } from './server-config';
import { DEFAULT_PRICES, PriceTable } from './pricing';
import { DeferLoading, ToolSearchSettings, deferralOf } from './tool-search-settings';
import { UsageLimits } from './usage-limits';
import { AppCodeExecutionDefault } from './code-execution';

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
        /** The design's name for the app's deferral (true: always, false: never, "auto"); wins over toolSearch.deferral. */
        deferLoading: DeferLoading.optional(),
        /** Dollars per million tokens by model id (`prefix*` keys match a family); replaces the built-in table. */
        prices: PriceTable.default(DEFAULT_PRICES),
        /** Compact a thread's model context when a request would pass this share of the context window. */
        compactAtShare: z.number().min(0.2).max(0.95).default(DEFAULT_COMPACT_AT_SHARE),
        /** App servers on in new threads for a profile that meets them for the first time (it may switch them off). */
        threadServerIds: z.array(ServerId).default([]),
        /** Spending limits every profile starts with (each may set its own). */
        limits: UsageLimits.default({}),
        /** Where threads run the model's code unless the profile or thread says otherwise (true: local, false: off). */
        enableProgrammaticCalling: AppCodeExecutionDefault.default('local'),
      })
      // Folded into toolSearch once, so every reader of the app's tool-search defaults sees it.
      .transform((defaults) =>
        defaults.deferLoading === undefined
          ? defaults
          : { ...defaults, toolSearch: { ...defaults.toolSearch, deferral: deferralOf(defaults.deferLoading) } },
      )
      .default({
        model: DEFAULT_MODEL,
        baseUrl: DEFAULT_BASE_URL,
        maxTokens: 8192,
        toolSearch: ToolSearchSettings.parse({}),
        prices: DEFAULT_PRICES,
        compactAtShare: DEFAULT_COMPACT_AT_SHARE,
        threadServerIds: [],
        limits: {},
        enableProgrammaticCalling: 'local',
      }),
    /** A server directory: an MCP registry (`GET /v0/servers`) the servers manager searches with "Find servers". */
    discovery: z
      .object({
        enabled: z.boolean().default(false),
        endpoint: z
          .string()
          .superRefine((value, ctx) => {
            const problem = serverUrlProblem(value);
            if (problem) ctx.addIssue({ code: 'custom', message: `Registry endpoint ${problem}` });
          })
          .optional(),
        /** Add the registry's servers without asking (false: only list them). */
        autoDiscover: z.boolean().default(false),
      })
      .refine((d) => !d.enabled || d.endpoint !== undefined, {
        message: 'A registry endpoint is needed when discovery is enabled',
        path: ['endpoint'],
      })
      .default({ enabled: false, autoDiscover: false }),
    oauth: z
      .object({
        /** URL of the OAuth client metadata document this deployment serves (for servers that accept one). */
        clientMetadataUrl: HttpsUrl.optional(),
      })
      .default({}),
    relay: z
      .object({
        /** The deployer's CORS relay (`npm run relay`, or the same handler on a serverless runtime). */
        url: HttpsUrl.optional(),
      })
      .default({}),
  })
  .superRefine((config, ctx) => checkUniqueServers(config.servers, ctx, ['servers']));
export type AppConfig = z.infer<typeof AppConfig>;

/** The configuration used when no app-config.json is deployed or it is invalid. */
export const EMPTY_APP_CONFIG: AppConfig = AppConfig.parse({});
