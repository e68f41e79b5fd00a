// The sandbox proxy page of MCP Apps (2026-01-26, "Sandbox proxy"), served on the sandbox
// origin, never the inspector's: it tells the inspector page it is ready, takes the view's HTML
// in `ui/notifications/sandbox-resource-ready`, has its own server keep it behind the view's CSP
// header, loads it in an inner iframe, and passes every other message both ways.

/** The reserved prefix: these messages stop at the proxy. */
export const SANDBOX_PREFIX = 'ui/notifications/sandbox-';

/**
 * The inner iframe's sandbox: scripts only. No `allow-same-origin` (the view gets an opaque
 * origin: it cannot reach the proxy, the sandbox server's storage, or another server's view), no
 * top navigation, no popups, no forms, no modals.
 */
export const VIEW_SANDBOX = 'allow-scripts';

/** The proxy page for a host page of `hostOrigin`; `nonce` marks its one script for its CSP. */
export function proxyPage(hostOrigin: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP App sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}
iframe{border:0;display:block;width:100%;height:100%}
p{font:13px system-ui,sans-serif;color:#b00;margin:8px}</style></head>
<body><script nonce="${nonce}">${proxyScript(hostOrigin)}</script></body></html>
`;
}

/** The proxy's script (plain ES2020, no imports): see the file comment. */
function proxyScript(hostOrigin: string): string {
  return `(() => {
  'use strict';
  const HOST = ${JSON.stringify(hostOrigin)};
  const PREFIX = ${JSON.stringify(SANDBOX_PREFIX)};
  const FEATURES = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  let inner = null;
  let started = false;
  let loads = 0;
  const methodOf = (data) =>
    typeof data === 'object' && data !== null && typeof data.method === 'string' ? data.method : undefined;
  const fail = (text) => {
    const p = document.createElement('p');
    p.textContent = text;
    document.body.append(p);
  };
  const allowOf = (permissions) =>
    typeof permissions === 'object' && permissions !== null
      ? Object.keys(FEATURES).filter((k) => typeof permissions[k] === 'object' && permissions[k] !== null).map((k) => FEATURES[k]).join('; ')
      : '';
  async function load(params) {
    if (typeof params !== 'object' || params === null || typeof params.html !== 'string') {
      fail('The host sent no HTML.');
      return;
    }
    const response = await fetch('/view', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ html: params.html, csp: params.csp, permissions: params.permissions }),
    });
    if (!response.ok) {
      fail('The sandbox could not take the view: ' + response.status);
      return;
    }
    const { url } = await response.json();
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', ${JSON.stringify(VIEW_SANDBOX)});
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.setAttribute('title', 'MCP App view');
    const allow = allowOf(params.permissions);
    if (allow !== '') frame.setAttribute('allow', allow);
    // A view that navigates its frame away is no longer the view: nothing more is passed.
    frame.addEventListener('load', () => {
      loads += 1;
      if (loads > 1 && inner === frame) {
        inner = null;
        frame.remove();
        fail('The view navigated away from its document; it was closed.');
      }
    });
    frame.src = url;
    inner = frame;
    document.body.append(frame);
  }
  window.addEventListener('message', (event) => {
    const data = event.data;
    const method = methodOf(data);
    if (event.source === window.parent && event.origin === HOST) {
      if (method !== undefined && method.startsWith(PREFIX)) {
        if (method === PREFIX + 'resource-ready' && !started) {
          started = true;
          load(data.params).catch((error) => fail('The view could not be loaded: ' + error));
        }
        return;
      }
      if (inner !== null && inner.contentWindow !== null) inner.contentWindow.postMessage(data, '*');
      return;
    }
    if (inner !== null && event.source === inner.contentWindow) {
      if (method !== undefined && method.startsWith(PREFIX)) return;
      window.parent.postMessage(data, HOST);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: PREFIX + 'proxy-ready', params: {} }, HOST);
})();`;
}
