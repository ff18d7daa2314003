/* Muster's service worker (served at /sw.js, after a "const SHELL = [...]" line naming the
 * app shell). Pages: network first, the last copy seen when the network is down, so a
 * player's saved armies, their printed PDFs and the rule-set pages read offline once seen.
 * Only GETs of this site are touched; a POST (a change) always goes to the network, and
 * the page's own queue keeps it until the server confirms it. */
/* global SHELL */
"use strict";
var CACHE = "muster-v1";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    // one missing shell file must not stop the worker installing. Without cookies: a shell
    // page's answer sets a CSRF cookie for a visitor who has none yet, and arriving while
    // the visitor's own page loads it would replace the cookie that page's form was made for
    return Promise.all(SHELL.map(function (url) {
      return cache.add(new Request(url, { credentials: "omit" })).catch(function () {});
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function cacheable(request, response) {
  if (!response || response.status !== 200 || response.type !== "basic") { return false; }
  // htmx fragments are parts of a page, not pages: never answer a navigation with one
  // (the cache is this player's own device: a no-store roster PDF is still theirs to keep)
  return !request.headers.get("HX-Request");
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  // a PDF's render progress is live state, never a saved copy
  if (url.searchParams.has("poll")) { return; }
  event.respondWith(fetch(request).then(function (response) {
    if (cacheable(request, response)) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }, function () {
    return caches.match(request, { ignoreVary: true }).then(function (hit) {
      if (hit) { return hit; }
      if (request.mode === "navigate") {
        return new Response(
          "<!doctype html><html lang=en><meta charset=utf-8><title>Offline · Muster</title>" +
          "<h1>You are offline</h1><p>This page has not been opened on this device yet, " +
          "so there is no copy of it. It will open once the connection returns.</p>",
          { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
      }
      return Response.error();
    });
  }));
});
