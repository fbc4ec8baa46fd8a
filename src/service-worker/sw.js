// The app's service worker (issue #22): the built app shell opens without a network. vite.config.ts writes it to the
// build as sw.js, with BUILD ({ version, files }: the app's own built files, relative to its base) declared ahead of
// this text. It answers only GET requests for those files and navigations to the app's page; everything else (the
// model API, MCP and OAuth servers, app-config.json, the code sandbox) goes to the network untouched, and nothing the
// app fetches at run time is ever stored here: the person's data lives in IndexedDB.
/* global BUILD */
'use strict';

const CACHE_PREFIX = 'mcp-agent-shell-';
const CACHE = `${CACHE_PREFIX}${BUILD.version}`;
const SCOPE = new URL(self.registration.scope);
const PAGE = new URL('index.html', SCOPE).href;
const FILES = new Set(BUILD.files.map((file) => new URL(file, SCOPE).href));
/** Pages of the app's origin that are not the app: the code sandbox has its own document and policy. */
const NOT_THE_APP = [new URL('sandbox/', SCOPE).pathname];

self.addEventListener('install', (event) => {
  // The whole shell or nothing: a version whose files could not all be fetched never takes over. It then waits until
  // the person chooses to reload (the page posts 'activate-update') or every tab of the app is closed.
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([...FILES].map((url) => new Request(url, { cache: 'reload' })))),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith(CACHE_PREFIX) && key !== CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'activate-update') void self.skipWaiting();
});

/** A navigation to the app's page: its base, index.html, or a path without a file extension (the SPA's routes). */
function isAppPage(url) {
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return false;
  if (NOT_THE_APP.some((path) => url.pathname.startsWith(path))) return false;
  const last = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  return last === '' || last === 'index.html' || !last.includes('.');
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const key = request.mode === 'navigate' ? (isAppPage(url) ? PAGE : undefined) : url.origin + url.pathname;
  if (key === undefined || !FILES.has(key)) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(key))
      .then((cached) => cached ?? fetch(request)),
  );
});
