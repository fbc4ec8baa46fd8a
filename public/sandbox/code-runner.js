// The code sandbox frame (issue #18). The page loads code-runner.html in an iframe sandboxed without allow-same-origin
// (an opaque origin: no cookies, storage or page access), under its own CSP (no connections). It hands over a
// MessagePort; this frame starts a worker for the model's code (an endless loop blocks the worker, not a page) and
// relays messages between the port and the worker. Nothing else comes in or goes out.
/* global mcpAgentCodeWorker */
(function () {
  'use strict';

  // Runs first inside the worker: takes away every way out a worker has, then starts the runtime.
  function workerBootstrap(runtime) {
    var post = self.postMessage.bind(self);
    var listen = self.addEventListener.bind(self);
    var names = [
      'fetch',
      'XMLHttpRequest',
      'WebSocket',
      'WebSocketStream',
      'WebTransport',
      'EventSource',
      'importScripts',
      'indexedDB',
      'caches',
      'BroadcastChannel',
      'Worker',
      'SharedWorker',
      'Request',
      'Response',
      'Headers',
      'FileReaderSync',
      'navigator',
      'location',
      'postMessage',
      'close',
      'onmessage',
      'addEventListener',
      'removeEventListener',
      'cookieStore',
      'storage',
      'open',
    ];
    for (var object = self; object; object = Object.getPrototypeOf(object))
      for (var i = 0; i < names.length; i++)
        if (Object.prototype.hasOwnProperty.call(object, names[i]))
          try {
            delete object[names[i]];
          } catch {
            // Not configurable: shadowed below.
          }
    for (var j = 0; j < names.length; j++)
      try {
        Object.defineProperty(self, names[j], { value: undefined, writable: false, configurable: false });
      } catch {
        // Already gone for good.
      }
    runtime(
      {
        post: post,
        listen: function (handle) {
          listen('message', function (event) {
            handle(event.data);
          });
        },
      },
      async function () {}.constructor,
    );
  }

  var worker;
  var port;

  function fail(message) {
    if (port) port.postMessage({ type: 'done', ok: false, error: { name: 'Error', message: message } });
  }

  function start(givenPort) {
    port = givenPort;
    var source = '(' + workerBootstrap.toString() + ')(' + mcpAgentCodeWorker.toString() + ');';
    var url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    try {
      worker = new Worker(url);
    } catch (e) {
      fail('The code sandbox could not start its worker: ' + e.message);
      return;
    }
    worker.onmessage = function (event) {
      port.postMessage(event.data);
    };
    worker.onerror = function (event) {
      event.preventDefault();
      fail('The code sandbox failed: ' + event.message);
    };
    port.onmessage = function (event) {
      var message = event.data;
      if (message && message.type === 'kill') {
        worker.terminate();
        port.close();
        return;
      }
      worker.postMessage(message);
    };
  }

  window.addEventListener('message', function (event) {
    if (port || event.source !== window.parent || !event.data || event.data.type !== 'mcp-agent-code-init') return;
    if (!event.ports || event.ports.length !== 1) return;
    start(event.ports[0]);
  });
})();
