/* The service worker's part for the page engine (armybuilder/pageengine.py): served after
 * static/js/sw.js as one script (armybuilder/ops/app_shell.py), which routes the engine's
 * files here and keeps ENGINE_CACHE through a new version's activation.
 *
 * The runtime and the rules archive live in a cache of their own, never per owner: first
 * from the network, then from the device. A page whose engine started before this worker
 * controlled it names the engine's files once it does ("engine"), and they are kept then. */
/* global PATHS, keepUrl */
var ENGINE_CACHE = "muster-engine"; // the page engine's runtime and archive (never per owner)
// files whose name never changes content: the runtime's path names its version, the
// engine's archive its hash (armybuilder/pageengine.py)
var ENGINE_FILE = /\/(pyodide-[0-9][^/]*)\/[^/]+$|\/engine\/rules\.[0-9a-f]{12}\.zip$/;

/* The page engine's files: from this device once kept (12 MB that never change under
 * their name), else from the network and kept, with any other version's files dropped. */
async function engineFile(request, url) {
  var cache = await caches.open(ENGINE_CACHE);
  var hit = await cache.match(request);
  if (hit) { return hit; }
  var response = await fetch(request);
  if (response.ok && response.type === "basic") {
    var mine = ENGINE_FILE.exec(url.pathname);
    var family = mine[1] ? "/pyodide-" : "/engine/rules.";
    var keep = mine[1] ? "/" + mine[1] + "/" : url.pathname;
    var old = (await cache.keys()).filter(function (kept) {
      var path = new URL(kept.url).pathname;
      return path.indexOf(family) !== -1 && path.indexOf(keep) === -1;
    });
    await Promise.all(old.map(function (kept) { return cache.delete(kept); }));
    await cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "engine" || !Array.isArray(data.urls)) { return; }
  // a page's engine started before this worker controlled it: its files, kept now
  event.waitUntil(Promise.all(data.urls.slice(0, 12).map(function (url) {
    if (typeof url !== "string") { return null; }
    var target = new URL(url, self.location.origin);
    if (target.origin !== self.location.origin || target.pathname.indexOf(PATHS.static) !== 0) {
      return null;
    }
    var request = new Request(target.href, { credentials: "same-origin" });
    return (ENGINE_FILE.test(target.pathname) ? engineFile(request, target)
      : keepUrl(target.href, false)).catch(function () {});
  })));
});
