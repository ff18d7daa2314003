/* Muster's service worker (served at /sw.js, after the lines "const SHELL = [...]" naming the
 * app shell and "const PATHS = {...}" naming the site's paths it needs; see
 * armybuilder/ops/app_shell.py).
 *
 * Pages: network first, the copy kept on this device when the network is down, so a
 * player's armies (each with its roster PDF), My armies and the rule-set pages read offline
 * once seen. A page first opened before this worker controlled it is kept too: the page
 * asks for it ("keep", from static/js/app.js).
 *
 * Whose copies: every page of the site says whom it was made for (the
 * X-Muster-Offline-Owner header: an account, or a visitor's session). Copies live in one
 * cache per owner, and a page made for someone else (log-out, another player signing in)
 * empties every other owner's cache: offline, a device only ever shows the pages of the
 * player signed in last. The log-out answer also clears all of it (Clear-Site-Data).
 *
 * Revoked is gone: a kept URL the server answers 401/403/404/410 for is deleted with
 * everything under it (a shared army's page with its roster), and whenever the connection
 * returns (and at most every minute while pages are opened) the kept share pages and My
 * armies are checked again, so a link regenerated or turned off, or an army deleted, is not
 * served offline after the device has been online since.
 *
 * Card editors: the builder draws its unit cards closed, and a card brings its editor when
 * opened (GET <unit>/editor/ with HX-Request). With each army page it keeps, the worker
 * keeps every card's editor too (the page names each with data-editor and a content key,
 * data-editor-key: an editor is fetched again only when its key moved), answers a card
 * opened offline with its kept editor, and keeps the page with every editor in place, so a
 * reload without a connection has every control (and the changes waiting for them) there.
 *
 * Only GETs are answered from here; a change (POST) always goes to the network, and the
 * page's own queue keeps it until the server confirms it. */
/* global SHELL, PATHS, ENGINE_CACHE, ENGINE_FILE, engineFile */
"use strict";
var SHELL_CACHE = "muster-shell-v2";
var META_CACHE = "muster-meta";
var PAGES = "muster-pages-"; // + the owner's key
var OWNER_URL = "/__muster/offline-owner"; // in META_CACHE: whose pages this device keeps
var OWNER_HEADER = "X-Muster-Offline-Owner";
var KEPT_HEADER = "X-Muster-Kept-At"; // when a copy was taken
var ROSTER_HEADER = "X-Muster-Roster-Of"; // the army version a kept roster was made from
var REVOKED = [401, 403, 404, 410];
var GATEWAY_DOWN = [502, 503, 504];
var ROSTER_REFRESH_MS = 120000; // a roster re-fetched at most this often per army
var ROSTER_AFTER_MS = 4000; // a page's roster fetched this long after the page
var SETTLE_MS = 5000; // an army's kept page fetched again this long after its last change
var LANDED_MS = 250; // ... or this long after the page said an answer landed (answers close together: once)
var CHECK_EVERY_MS = 60000; // share pages re-checked at most this often while browsing
var EDITOR_KEY_HEADER = "X-Muster-Editor-Key"; // what a card's editor was drawn from
var EDITOR_PATH = /^\/armies\/\d+\/(unit|general)\/[^/]+\/editor\/$/;
var EDITORS_AT_ONCE = 4; // a page's editors fetched this many side by side
var OFFLINE_PAGE =
  "<!doctype html><html lang=en><meta charset=utf-8><title>Offline · Muster</title>" +
  "<h1>You are offline</h1><p>This page has not been opened on this device yet, " +
  "so there is no copy of it. It will open once the connection returns.</p>";

// cache changes run one at a time: an owner switch never interleaves with a copy being kept
var queue = Promise.resolve();
function serial(task) {
  var run = queue.then(task);
  queue = run.catch(function () {});
  return run;
}

function sleep(ms) {
  return new Promise(function (done) { setTimeout(done, ms); });
}

// read each time, never remembered in memory: Clear-Site-Data may have emptied it meanwhile
async function currentOwner() {
  var hit = await caches.match(OWNER_URL, { cacheName: META_CACHE });
  return hit ? hit.text() : null;
}

function isAccount(owner) {
  return typeof owner === "string" && owner.indexOf("u-") === 0;
}

/* A page made for `owner` came from the network for a page: from now on the device keeps that
 * owner's pages, and every other owner's copies are deleted. Resolves true on a switch. */
function adopt(owner) {
  return serial(async function () {
    if ((await currentOwner()) === owner) { return false; }
    var meta = await caches.open(META_CACHE);
    await meta.put(OWNER_URL, new Response(owner));
    var names = await caches.keys();
    await Promise.all(names.filter(function (name) {
      return name.indexOf(PAGES) === 0 && name !== PAGES + owner;
    }).map(function (name) { return caches.delete(name); }));
    return true;
  });
}

/* Delete a URL from every cache, and for a page (a path ending in "/") everything under
 * it: a revoked share link takes its roster and army.json along, a deleted army its
 * history, export and roster. */
function forget(url) {
  var target = new URL(url);
  var prefix = target.pathname.slice(-1) === "/" ? target.origin + target.pathname : null;
  return serial(async function () {
    var names = (await caches.keys()).filter(function (name) {
      return name.indexOf(PAGES) === 0 || name === SHELL_CACHE;
    });
    for (var i = 0; i < names.length; i++) {
      var cache = await caches.open(names[i]);
      var kept = await cache.keys();
      for (var j = 0; j < kept.length; j++) {
        var keptUrl = new URL(kept[j].url);
        if (kept[j].url === url || (prefix && (keptUrl.origin + keptUrl.pathname).indexOf(prefix) === 0)) {
          await cache.delete(kept[j]);
        }
      }
    }
  });
}

function skipped(url) {
  // live state and pages with nothing to read offline: straight to the network, never kept
  if (url.searchParams.has("poll") || /\/version\.json$/.test(url.pathname)) { return true; }
  if (url.pathname === PATHS.worker) { return true; }
  return PATHS.never.some(function (prefix) { return url.pathname.indexOf(prefix) === 0; });
}

function keepable(response, request) {
  if (!response || response.status !== 200 || response.type !== "basic" || response.redirected) {
    return false;
  }
  // htmx fragments are parts of a page, not pages: never answer a navigation with one
  // (a card's editor is kept, under an address of its own: see editorKey)
  return !(request && request.headers.get("HX-Request")) || isEditorRequest(request);
}

function isEditorRequest(request) {
  return !!(request && request.headers.get("HX-Request") && EDITOR_PATH.test(new URL(request.url).pathname));
}

/* Where a card's editor (the htmx fragment) is kept: beside the page its address answers
 * without htmx, never in its place. */
function editorKey(url) {
  var target = new URL(url, self.location.origin);
  return target.origin + target.pathname + "?fragment";
}

function isHtml(response) {
  return (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
}

function isPdf(response) {
  return (response.headers.get("Content-Type") || "").indexOf("application/pdf") === 0;
}

/* The copy stored: the server's answer with the time it was kept; a page also says so on
 * its <html> element (static/js/app.js shows "as last seen" when a copy is opened). */
async function copyOf(response, extra) {
  var headers = new Headers(response.headers);
  var now = new Date().toISOString();
  headers.set(KEPT_HEADER, now);
  Object.keys(extra || {}).forEach(function (name) { headers.set(name, extra[name]); });
  var body;
  if (isHtml(response)) {
    body = (await response.text()).replace(/<html\b/i, '<html data-offline-copy="' + now + '"');
  } else {
    body = await response.blob();
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
}

/* Keep `response` (the network's answer for `url`) for `owner`, unless the device has
 * switched to someone else meanwhile. */
function store(url, copy, owner) {
  return serial(async function () {
    if ((await currentOwner()) !== owner) { return false; }
    var cache = await caches.open(PAGES + owner);
    await cache.put(url, copy);
    return true;
  });
}

/* What to do with an answer from the network: forget a revoked URL, keep a good one (for
 * the owner it was made for), and keep an army page's roster with it. `fromPage`: a page
 * asked for it with the browser's cookies of now, so its owner becomes the device's owner
 * (never for the worker's own fetches in the background: one still under way when the
 * player logs out must not bring their copies back). */
async function remember(url, response, request, fromPage) {
  var path = new URL(url).pathname;
  if (REVOKED.indexOf(response.status) !== -1) { return forget(url); }
  if (!keepable(response, request)) { return; }
  var owner = response.headers.get(OWNER_HEADER);
  if (owner === null) {
    // not one of the site's pages (the static files): the same for everyone
    if (path.indexOf(PATHS.static) === 0) {
      await serial(async function () { await (await caches.open(SHELL_CACHE)).put(url, response); });
    }
    return;
  }
  if (fromPage && (await adopt(owner)) && isAccount(owner) && path !== PATHS.start) {
    // a player signed in: their My armies is kept at once (the installed app's start page)
    await keepUrl(PATHS.start, false);
  }
  if (isEditorRequest(request)) {
    await store(editorKey(url), await copyOf(response), owner);
    return;
  }
  var html = isHtml(response) ? await response.clone().text() : null;
  var copy = await copyOf(response);
  if (html !== null && html.indexOf(' data-editor="') !== -1) {
    // an army page is kept only with its cards' editors in place (a copy without them
    // would put a reload's waiting changes nowhere): until then the last such copy stays
    var mine = (keeping[url] || 0) + 1;
    keeping[url] = mine;
    if (await keepEditors(url, html, copy, owner, mine)) {
      await keepRoster(path, html, response, owner);
    }
    return;
  }
  if (await store(url, copy, owner) && html !== null) {
    await keepRoster(path, html, response, owner);
  }
}

/* An army page keeps every card's editor: each one the page names (data-editor) whose
 * kept copy was drawn from other content (data-editor-key) is fetched again; the editors
 * of cards no longer on the page go. Then the page is kept with every editor in its card,
 * unless a newer copy of the page is being kept meanwhile (`keeping`). Resolves true when
 * the page was kept. */
var keeping = {}; // page URL -> the number of its latest keep
async function keepEditors(url, html, copy, owner, mine) {
  var named = {};
  html.replace(/data-editor="([^"]+)" data-editor-key="([^"]*)"/g, function (match, editor, key) {
    named[new URL(editor, self.location.origin).href] = key;
    return match;
  });
  var editors = Object.keys(named);
  var cache = await caches.open(PAGES + owner);
  var stale = [];
  for (var i = 0; i < editors.length; i++) {
    var kept = await cache.match(editorKey(editors[i]));
    if (!kept || kept.headers.get(EDITOR_KEY_HEADER) !== named[editors[i]]) { stale.push(editors[i]); }
  }
  async function fetchSome() {
    while (stale.length) {
      var editor = stale.shift();
      var answer = await fetch(editor, { credentials: "same-origin", headers: { "HX-Request": "true" } })
        .catch(function () { return null; });
      if (!answer) { continue; }
      if (REVOKED.indexOf(answer.status) !== -1) { await forget(editor); continue; }
      if (!keepable(answer, null) || answer.headers.get(OWNER_HEADER) !== owner) { continue; }
      await store(editorKey(editor), await copyOf(answer), owner);
    }
  }
  var workers = [];
  for (var w = 0; w < EDITORS_AT_ONCE; w++) { workers.push(fetchSome()); }
  await Promise.all(workers);
  var army = /^\/armies\/\d+\//.exec(new URL(url).pathname);
  var fragments = {};
  for (var j = 0; j < editors.length; j++) {
    var fragment = await cache.match(editorKey(editors[j]));
    if (fragment) { fragments[new URL(editors[j]).pathname] = await fragment.text(); }
  }
  // every card drawn with its kept editor, where the page had the link to it
  var text = (await copy.text()).replace(
    /<div class="card-editor pending-editor" id="[^"]*" hx-get="([^"]+)"[^>]*>[\s\S]*?<\/div>/g,
    function (slot, editor) { return fragments[editor] || slot; });
  return serial(async function () {
    if ((await currentOwner()) !== owner || keeping[url] !== mine) { return false; }
    await cache.put(url, new Response(text, { status: copy.status, statusText: copy.statusText, headers: copy.headers }));
    if (!army) { return true; }
    var all = await cache.keys();
    for (var k = 0; k < all.length; k++) {
      var kept = new URL(all[k].url);
      if (kept.search === "?fragment" && kept.pathname.indexOf(army[0]) === 0 &&
          !(kept.origin + kept.pathname in named)) {
        await cache.delete(all[k]); // a card no longer on the page
      }
    }
    return true;
  });
}

async function stillVersion(path, version) {
  try {
    var now = await fetch(path + "version.json", { credentials: "same-origin", cache: "no-store" });
    return now.ok && String((await now.json()).version) === version;
  } catch (e) {
    return false;
  }
}

/* An army page keeps its roster: the PDF its print link gives ("<page>roster.pdf"). Each
 * sheet already made costs the player nothing (only a render queued counts against their
 * PDF limit), yet it is fetched again only when the army changed, and at most every two
 * minutes; and only once the page has been still a few
 * seconds (the server renders a still army's sheets ahead by then, and the page's own
 * requests come first). A render still queued is waited for. */
async function keepRoster(path, html, response, owner) {
  var roster = path + "roster.pdf";
  if (html.indexOf('href="' + roster + '"') === -1) { return; }
  await sleep(ROSTER_AFTER_MS);
  var version = /id="army-version" value="([^"]*)"/.exec(html);
  var made = version ? "v" + version[1] : response.headers.get("ETag") || "";
  var kept = await caches.match(roster, { cacheName: PAGES + owner });
  if (kept) {
    var age = Date.now() - Date.parse(kept.headers.get(KEPT_HEADER) || "");
    if (!made || kept.headers.get(ROSTER_HEADER) === made || age < ROSTER_REFRESH_MS) { return; }
  }
  var answer = await fetch(roster);
  if (REVOKED.indexOf(answer.status) !== -1) { return forget(answer.url); }
  for (var tries = 0; !(answer.ok && !answer.redirected && isPdf(answer)); tries++) {
    // queued: /armies/<id>/roster.pdf led to the render's progress page; its download URL
    // answers with the PDF once the worker has made it
    var render = new RegExp("^" + PATHS.prints + "([0-9a-f-]+)/").exec(new URL(answer.url).pathname);
    if (!answer.ok || !render || tries >= 30) { return; }
    await sleep(2000);
    answer = await fetch(PATHS.prints + render[1] + "/pdf");
  }
  if (answer.headers.get(OWNER_HEADER) !== owner) { return; }
  // the army may have changed since the page was drawn: the roster is then of a later
  // version than the page names, and is kept only when the army is still that version
  if (version && !(await stillVersion(path, version[1]))) { return; }
  var extra = {};
  extra[ROSTER_HEADER] = made;
  await store(roster, await copyOf(answer, extra), owner);
}

/* Fetch and keep a page of this site (a page opened before the worker controlled it, or
 * My armies for a player who just signed in). */
async function keepUrl(url, fromPage) {
  var target = new URL(url, self.location.origin);
  if (target.origin !== self.location.origin || skipped(target)) { return; }
  target.hash = "";
  var response = await fetch(target.href, { credentials: "same-origin" });
  await remember(target.href, response, null, fromPage);
}

/* The kept copies whose access may have ended elsewhere are asked again: share pages (with
 * their ETag: unchanged costs a 304) and My armies, whose new copy also tells which armies
 * are still the player's (army pages it no longer links are deleted). */
var lastCheck = 0;
async function recheck(force) {
  if (!force && Date.now() - lastCheck < CHECK_EVERY_MS) { return; }
  lastCheck = Date.now();
  var owner = await currentOwner();
  if (!owner || (await caches.keys()).indexOf(PAGES + owner) === -1) { return; }
  var cache = await caches.open(PAGES + owner);
  var kept = await cache.keys();
  var start = new URL(PATHS.start, self.location.origin).href;
  for (var i = 0; i < kept.length; i++) {
    var path = new URL(kept[i].url).pathname;
    if (path.indexOf(PATHS.shared) !== 0 || path.slice(-1) !== "/") { continue; }
    var copy = await cache.match(kept[i]);
    var etag = copy && copy.headers.get("ETag");
    var answer = await fetch(kept[i].url, { headers: etag ? { "If-None-Match": etag } : {} });
    if (REVOKED.indexOf(answer.status) !== -1) { await forget(kept[i].url); }
  }
  if (!(await cache.match(start))) { return; }
  var list = await fetch(start);
  if (!keepable(list, null) || list.headers.get(OWNER_HEADER) !== owner) { return; }
  var html = await list.clone().text();
  var listed = {};
  html.replace(/href="\/armies\/(\d+)\/"/g, function (match, pk) { listed[pk] = true; return match; });
  await remember(start, list, null, false);
  for (var j = 0; j < kept.length; j++) {
    var army = /^\/armies\/(\d+)\//.exec(new URL(kept[j].url).pathname);
    if (army && !listed[army[1]]) { await forget(new URL(army[0], self.location.origin).href); }
  }
}

/* After a change to an army (a POST), its kept page and My armies are fetched again once
 * the changes have settled, so a reload without a connection shows the army as last saved
 * (and a deleted army's copies go: its page answers 404). */
var settling = {};
async function refreshAfterChange(base, delay) {
  var mine = (settling[base] || 0) + 1;
  settling[base] = mine;
  await sleep(delay === undefined ? SETTLE_MS : delay);
  if (settling[base] !== mine) { return; } // a later change will do it
  var owner = await currentOwner();
  if (!owner) { return; }
  var targets = [base, PATHS.start];
  for (var i = 0; i < targets.length; i++) {
    var url = new URL(targets[i], self.location.origin).href;
    if (await caches.match(url, { cacheName: PAGES + owner })) {
      var answer = await fetch(url).catch(function () { return null; });
      if (answer) { await remember(url, answer, null, false); }
    }
  }
  await tellKept(base, owner);
}

/* The army pages open on this device are told which version of the army the kept copy
 * is now (a page shows it, so a player and a test can see the copy caught up). */
async function tellKept(base, owner) {
  var url = new URL(base, self.location.origin).href;
  var kept = await caches.match(url, { cacheName: PAGES + owner });
  if (!kept) { return; }
  var version = /id="army-version" value="([^"]*)"/.exec(await kept.text());
  if (!version) { return; }
  var pages = await self.clients.matchAll({ type: "window" });
  pages.forEach(function (client) {
    if (new URL(client.url).pathname.indexOf(base) === 0) {
      client.postMessage({ type: "kept", path: base, version: Number(version[1]) });
    }
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) {
    // one missing shell file must not stop the worker installing. Without cookies: the
    // shell is the same for everyone (and a shell page's answer sets a CSRF cookie for a
    // visitor who has none yet, which arriving while the visitor's own page loads would
    // replace the cookie that page's form was made for)
    return Promise.all(SHELL.map(function (url) {
      return cache.add(new Request(url, { credentials: "omit" })).catch(function () {});
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name !== SHELL_CACHE && name !== META_CACHE && name !== ENGINE_CACHE &&
        name.indexOf(PAGES) !== 0;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }).then(function () {
    return recheck(true).catch(function () {});
  }));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "keep" && Array.isArray(data.urls)) {
    // side by side: a page waits for no other page's roster
    event.waitUntil(Promise.all(data.urls.slice(0, 20).map(function (url) {
      return typeof url === "string" ? keepUrl(url, true).catch(function () {}) : null;
    })));
  } else if (data.type === "landed" && typeof data.path === "string" && /^\/armies\/\d+\/$/.test(data.path)) {
    // an answer landed on an army page: its kept copy (with its editors) is taken now, not
    // once the changes settle, so an offline reload a moment later shows what was saved
    event.waitUntil(refreshAfterChange(data.path, LANDED_MS).catch(function () {}));
  } else if (data.type === "online") {
    event.waitUntil(recheck(true).catch(function () {}));
  }
});

async function fromCopy(request) {
  var owner = await currentOwner();
  if (isEditorRequest(request)) {
    // a card opened offline: its kept editor
    var editor = owner ? await caches.match(editorKey(request.url), { cacheName: PAGES + owner }) : undefined;
    return editor || Response.error();
  }
  // a fragment is never answered with a kept page
  if (request.headers.get("HX-Request")) { return Response.error(); }
  var hit = owner
    ? await caches.match(request, { cacheName: PAGES + owner, ignoreVary: true })
    : undefined;
  if (!hit) {
    // the shell's pages are the signed-out ones: never shown to a signed-in player
    var shell = await caches.match(request, { cacheName: SHELL_CACHE, ignoreVary: true });
    if (shell && !(isAccount(owner) && isHtml(shell))) { hit = shell; }
  }
  if (hit) { return hit; }
  if (request.mode === "navigate") {
    return new Response(OFFLINE_PAGE, {
      status: 503, headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  }
  return Response.error();
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method !== "GET") {
    var army = /^\/armies\/(\d+)\//.exec(url.pathname);
    if (army) { event.waitUntil(refreshAfterChange(army[0]).catch(function () {})); }
    return;
  }
  if (skipped(url)) { return; }
  if (url.pathname.indexOf(PATHS.static) === 0 && ENGINE_FILE.test(url.pathname)) {
    event.respondWith(engineFile(request, url));
    return;
  }
  var navigation = request.mode === "navigate";
  event.respondWith(fetch(request).then(function (response) {
    if (GATEWAY_DOWN.indexOf(response.status) !== -1) {
      // the site itself is unreachable behind its proxy: as good as offline
      return fromCopy(request).then(function (copy) {
        return copy.ok ? copy : response;
      }, function () { return response; });
    }
    event.waitUntil(remember(request.url, response.clone(), request, true)
      .catch(function () {}));
    if (navigation) { event.waitUntil(recheck(false).catch(function () {})); }
    return response;
  }, function () {
    return fromCopy(request);
  }));
});
