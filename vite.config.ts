import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { CLIENT_METADATA_PATH, clientMetadataDocument } from './src/domain/oauth-client-metadata.ts';

/**
 * Emits the OAuth client ID metadata document for the deployed origin (MCP_AGENT_ORIGIN=https://…), so the
 * static site serves it at /oauth/client-metadata.json; app-config.json's oauth.clientMetadataUrl points there.
 */
function oauthClientMetadata(): Plugin {
  let base = '/';
  return {
    name: 'oauth-client-metadata',
    configResolved: (config) => void (base = config.base),
    generateBundle() {
      const origin = process.env.MCP_AGENT_ORIGIN;
      if (!origin) return;
      if (!origin.startsWith('https://')) throw new Error('MCP_AGENT_ORIGIN must be an https:// origin (authorization servers fetch the document)');
      this.emitFile({ type: 'asset', fileName: CLIENT_METADATA_PATH, source: `${JSON.stringify(clientMetadataDocument(origin, base), null, 2)}\n` });
    },
  };
}

export default defineConfig({
  plugins: [react(), oauthClientMetadata()],
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { target: 'es2022', sourcemap: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts', 'test/fixtures/**/*.test.ts', 'test/fakes/**/*.test.ts'],
          setupFiles: ['test/setup-unit.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
