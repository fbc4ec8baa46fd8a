import { z } from 'zod';
import { ServerConfig, checkUniqueServers, serverUrlProblem } from './server-config';
import { ToolSearchSettings } from './tool-search-settings';
import { UsageLimits } from './usage-limits';

export const DEFAULT_MODEL = 'claude-sonnet-5';
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

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
        /** Spending limits every profile starts with (each may set its own). */
        limits: UsageLimits.default({}),
      })
      .default({
        model: DEFAULT_MODEL,
        baseUrl: DEFAULT_BASE_URL,
        maxTokens: 8192,
        toolSearch: ToolSearchSettings.parse({}),
        limits: {},
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
  })
  .superRefine((config, ctx) => checkUniqueServers(config.servers, ctx, ['servers']));
export type AppConfig = z.infer<typeof AppConfig>;

/** The configuration used when no app-config.json is deployed or it is invalid. */
export const EMPTY_APP_CONFIG: AppConfig = AppConfig.parse({});
