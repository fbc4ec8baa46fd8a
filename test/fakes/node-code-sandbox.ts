/**
 * The code sandbox's stand-in for Node tests: the same runtime (public/sandbox/code-worker.js) and message protocol
 * as the browser's frame, run in a worker thread inside a bare vm context (no process, require, fetch or timers).
 * A vm context is not a security boundary against code written to escape it; the browser's opaque-origin frame is
 * the real sandbox, tested in Chromium. This one lets unit tests run the executor's limits and tool path for real.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { OpenSandbox } from '../../src/agent/code/sandbox-port';

const RUNTIME = readFileSync(new URL('../../public/sandbox/code-worker.js', import.meta.url), 'utf8');

const WORKER_MAIN = `
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const context = vm.createContext(Object.create(null));
vm.runInContext(workerData.runtime, context, { filename: 'code-worker.js' });
const start = vm.runInContext(
  '(function (post, listen) { mcpAgentCodeWorker({ post: post, listen: listen }, async function () {}.constructor); })',
  context,
);
start((message) => parentPort.postMessage(message), (handle) => parentPort.on('message', handle));
`;

/** Opens a Node worker running the sandbox runtime; closing it terminates the worker (an endless loop included). */
export const openNodeSandbox: OpenSandbox = () => {
  const worker = new Worker(WORKER_MAIN, { eval: true, workerData: { runtime: RUNTIME }, env: {}, stdout: true });
  let isClosed = false;
  return Promise.resolve({
    post: (message) => {
      if (!isClosed) worker.postMessage(message);
    },
    listen: (handle) => {
      worker.on('message', handle);
      worker.on('error', (error) =>
        handle({ type: 'done', ok: false, error: { name: 'Error', message: `The sandbox failed: ${error.message}` } }),
      );
    },
    close: () => {
      isClosed = true;
      void worker.terminate();
    },
  });
};
