// The inside of the code sandbox (issue #18): runs the model's code as the body of an async function with `tools` and
// `console`, and talks to the page only through `endpoint` ({ post, listen }). The browser runs it in a worker of an
// opaque-origin frame (code-runner.js); the unit tests' Node stand-in runs the same file. Plain JS: it is sent as text.
/* exported mcpAgentCodeWorker */
function mcpAgentCodeWorker(endpoint, AsyncFunction) {
  'use strict';
  // `new AsyncFunction(a, b, body)` puts two lines before the body: "async function anonymous(tools,console\n) {\n".
  var HEADER_LINES = 2;
  var pending = new Map();
  var nextId = 1;
  var logBudget = 0;
  var isLogCapped = false;
  var hasRun = false;

  function lineFromStack(stack) {
    var match = /<anonymous>:(\d+):(\d+)\)?/.exec(String(stack || ''));
    if (!match) return undefined;
    var line = Number(match[1]) - HEADER_LINES;
    return line >= 1 ? line : undefined;
  }

  function errorOf(error) {
    if (error instanceof Error || (error && typeof error === 'object' && 'message' in error)) {
      var line = typeof error.codeLine === 'number' ? error.codeLine : lineFromStack(error.stack);
      return { name: String(error.name || 'Error'), message: String(error.message), line: line };
    }
    return { name: 'Error', message: 'The code threw a non-Error value: ' + safeText(error), line: undefined };
  }

  function safeText(value) {
    if (typeof value === 'string') return value;
    try {
      var text = JSON.stringify(value);
      return text === undefined ? String(value) : text;
    } catch {
      return String(value);
    }
  }

  // A syntax error carries no line from the Function constructor: the first prefix of lines that fails the same way has it.
  function syntaxLine(code, message) {
    var lines = code.split('\n');
    for (var n = 1; n <= lines.length; n++) {
      try {
        new AsyncFunction('tools', 'console', lines.slice(0, n).join('\n'));
      } catch (e) {
        if (String(e.message) === message) return n;
      }
    }
    return lines.length;
  }

  function log(args) {
    if (isLogCapped) return;
    var text = Array.prototype.map.call(args, safeText).join(' ');
    if (text.length > logBudget) {
      isLogCapped = true;
      endpoint.post({ type: 'log', text: text.slice(0, Math.max(0, logBudget)), isCapped: true });
      return;
    }
    logBudget -= text.length + 1;
    endpoint.post({ type: 'log', text: text, isCapped: false });
  }

  var sandboxConsole = Object.freeze({ log: log_, info: log_, warn: log_, error: log_, debug: log_ });
  function log_() {
    log(arguments);
  }

  function callTool(name, args) {
    var line = lineFromStack(new Error().stack);
    var sent;
    try {
      sent = args === undefined ? {} : JSON.parse(JSON.stringify(args));
    } catch (e) {
      var bad = new TypeError('The arguments for ' + name + ' are not JSON: ' + e.message);
      bad.codeLine = line;
      return Promise.reject(bad);
    }
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending.set(id, { resolve: resolve, reject: reject, line: line });
      endpoint.post({ type: 'call', id: id, name: String(name), args: sent });
    });
  }

  var tools = new Proxy(Object.create(null), {
    get: function (_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return function (args) {
        return callTool(name, args);
      };
    },
  });

  function serialize(value) {
    if (value === undefined) return undefined;
    return JSON.stringify(value, function (key, item) {
      var where = key === '' ? 'The returned value' : 'The returned value at "' + key + '"';
      if (typeof item === 'function') throw new TypeError(where + ' is a function, which cannot be sent back as JSON');
      if (typeof item === 'bigint') throw new TypeError(where + ' is a BigInt, which JSON cannot hold');
      if (typeof item === 'symbol') throw new TypeError(where + ' is a Symbol, which JSON cannot hold');
      return item;
    });
  }

  function run(message) {
    if (hasRun) return;
    hasRun = true;
    logBudget = message.logLimit;
    var body;
    try {
      body = new AsyncFunction('tools', 'console', message.code);
    } catch (e) {
      var line = e instanceof SyntaxError ? syntaxLine(message.code, String(e.message)) : undefined;
      endpoint.post({ type: 'done', ok: false, error: { name: e.name, message: String(e.message), line: line } });
      return;
    }
    var started;
    try {
      started = body(tools, sandboxConsole);
    } catch (e) {
      started = Promise.reject(e);
    }
    started.then(
      function (value) {
        var text;
        try {
          text = serialize(value);
        } catch (e) {
          var reason = /circular/i.test(String(e.message))
            ? 'The returned value contains a cycle, which cannot be sent back as JSON'
            : String(e.message);
          endpoint.post({ type: 'done', ok: false, error: { name: 'TypeError', message: reason } });
          return;
        }
        endpoint.post({ type: 'done', ok: true, value: text });
      },
      function (error) {
        endpoint.post({ type: 'done', ok: false, error: errorOf(error) });
      },
    );
  }

  function settle(message) {
    var waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.ok) waiting.resolve(message.value);
    else {
      var error = new Error(String(message.error));
      error.codeLine = waiting.line;
      waiting.reject(error);
    }
  }

  endpoint.listen(function (message) {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'run' && typeof message.code === 'string') run(message);
    else if (message.type === 'result' && typeof message.id === 'number') settle(message);
  });
}
