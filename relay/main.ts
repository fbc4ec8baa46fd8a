// `npm run relay`: the CORS relay on Node. Flags: --port N, --host H, --allow-origin ORIGIN (repeatable),
// --allow-private-targets, --max-body-bytes N.
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_BODY_BYTES } from './relay-handler';
import { startRelayServer } from './node-server';

/** The dev server (`npm start`) and `npm run preview`, when no --allow-origin is given. */
const DEFAULT_ORIGINS = [
  'http://127.0.0.1:5173',
  'http://localhost:5173',
  'http://127.0.0.1:4173',
  'http://localhost:4173',
];

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    'allow-origin': { type: 'string', multiple: true },
    'allow-private-targets': { type: 'boolean', default: false },
    'max-body-bytes': { type: 'string', default: String(DEFAULT_MAX_BODY_BYTES) },
  },
});

const port = Number(values.port);
const maxBodyBytes = Number(values['max-body-bytes']);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, not ${values.port}`);
if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) throw new Error('--max-body-bytes must be a positive integer');
const allowedOrigins = values['allow-origin']?.length ? values['allow-origin'] : DEFAULT_ORIGINS;
for (const origin of allowedOrigins) {
  if (new URL(origin).origin !== origin)
    throw new Error(`--allow-origin needs an origin like https://app.example.com, not ${origin}`);
}

const relay = await startRelayServer({
  host: values.host,
  port,
  allowedOrigins,
  allowPrivateTargets: values['allow-private-targets'],
  maxBodyBytes,
  log: (line) => console.log(`${new Date().toISOString()} ${line}`),
});
console.log(`MCP relay on ${relay.url} for ${allowedOrigins.join(', ')}`);
console.log(
  values['allow-private-targets']
    ? 'Private and loopback targets are allowed.'
    : 'Private and loopback targets are refused.',
);
const stop = () => void relay.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
