// The MCP Apps sandbox proxy (issue #21), the outer frame of the extension's double-iframe sandbox. The page frames
// proxy.html sandboxed with allow-scripts only (an opaque origin: no cookies, storage or page access) under the policy
// of public/mcp-app/ (security-headers.ts: MCP_APP_SANDBOX_HEADERS). When the page sends the app's document
// (ui/notifications/sandbox-resource-ready) this frame puts it in an inner frame, sandboxed with allow-scripts only as
// well (never allow-same-origin, whatever the message says), and from then on relays messages both ways: the page's to
// the app, the app's to the page. Nothing else comes in or goes out.
(function () {
  'use strict';
  if (window.parent === window) return;

  var PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
  var RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';
  var inner;

  function show(html) {
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', 'allow-scripts');
    inner.setAttribute('title', 'App');
    inner.setAttribute('referrerpolicy', 'no-referrer');
    inner.srcdoc = html;
    document.body.appendChild(inner);
  }

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.source === window.parent) {
      if (data && data.method === RESOURCE_READY) {
        var params = data.params || {};
        if (!inner && typeof params.html === 'string') show(params.html);
      } else if (inner && inner.contentWindow) {
        inner.contentWindow.postMessage(data, '*');
      }
    } else if (inner && event.source === inner.contentWindow) {
      // Only this app's page may frame this one (frame-ancestors 'self'), so the parent is the page.
      window.parent.postMessage(data, '*');
    }
  });

  window.parent.postMessage({ jsonrpc: '2.0', method: PROXY_READY, params: {} }, '*');
})();
