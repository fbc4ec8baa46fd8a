// The relay on an edge runtime that takes a module with a fetch handler (Cloudflare Workers, Deno Deploy, Bun).
// Configure with the ALLOWED_ORIGINS variable (comma-separated origins of the app). Such runtimes give no DNS
// lookups, so only literal private addresses and localhost names are refused here; their networks do not reach
// private addresses anyway. See "The CORS relay" in README.md.
import { createRelayHandler, type FetchHandler } from './relay-handler';

interface Env {
  readonly ALLOWED_ORIGINS?: string;
}

let handler: FetchHandler | undefined;
let handlerFor: string | undefined;

export default {
  /** The runtime's entry: one request in, one streamed response out; nothing is kept between requests. */
  fetch(request: Request, env: Env): Promise<Response> {
    const origins = env.ALLOWED_ORIGINS ?? '';
    if (!handler || handlerFor !== origins) {
      handlerFor = origins;
      handler = createRelayHandler({
        allowedOrigins: origins
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
        allowPrivateTargets: false,
      });
    }
    return handler(request);
  },
};
