/* The page's side of the rules engine in the browser (static/js/engine/worker.js).
 *
 * window.MusterEngine:
 *   status        "off" (no engine on this page or site), "loading", "ready" or "failed"
 *   whenReady()   a promise: resolves when ready, rejects when off or failed
 *   call(target, args)
 *                 the JSON answer of the Python function `target` ("rules.page.<module>:
 *                 <function>") called with the object `args` as keyword arguments; rejects
 *                 with the Python exception's "<Type>: <message>". Answered in the order
 *                 asked; a call before ready waits for it.
 *   readyMs       how long the worker took to be ready (runtime, archive, import)
 * document gets "muster:engine" ({detail: {status}}) at every change of status.
 *
 * Where it comes from: <meta name="muster-engine" content='{"worker", "runtime", "rules"}'>
 * (armybuilder/pageengine.py). The engine starts by itself once the page has loaded and is
 * idle, on pages that show its status ([data-engine-status]: the builder, the game, the
 * list editor), or at the first call. It never blocks the page: until it is ready the page
 * shows the server's figures, as it does without JavaScript.
 *
 * [data-engine-status] elements say, only while offline (online the server's figures come
 * anyway), whether the figures on screen are exact: worked out on this device, or waiting
 * for the connection. Their data-engine-state always holds the status. */
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="muster-engine"]');
  var urls = null;
  try { urls = meta ? JSON.parse(meta.getAttribute("content")) : null; } catch (e) { urls = null; }

  var worker = null;
  var pending = new Map();
  var nextId = 1;
  var settle = {};
  var ready = new Promise(function (resolve, reject) { settle.resolve = resolve; settle.reject = reject; });
  ready.catch(function () {});

  var OFFLINE_WORDS = {
    loading: "Offline: getting exact figures ready on this device…",
    ready: "Offline: figures worked out exactly on this device",
    failed: "Offline: figures wait for the connection",
    off: "Offline: figures wait for the connection",
  };

  var engine = {
    status: urls ? "idle" : "off",
    readyMs: null,
    whenReady: function () { start(); return ready; },
    call: call,
    start: start,
  };

  function drawStatus() {
    var offline = navigator.onLine === false;
    document.querySelectorAll("[data-engine-status]").forEach(function (element) {
      element.setAttribute("data-engine-state", engine.status);
      var words = offline ? (OFFLINE_WORDS[engine.status] || "") : "";
      if (element.textContent !== words) { element.textContent = words; }
      element.hidden = !words;
    });
  }

  function setStatus(status) {
    engine.status = status;
    drawStatus();
    document.dispatchEvent(new CustomEvent("muster:engine", { detail: { status: status } }));
  }

  function fail(reason) {
    if (engine.status === "failed") { return; }
    setStatus("failed");
    var error = new Error("the engine could not start: " + reason);
    settle.reject(error);
    pending.forEach(function (waiting) { waiting.reject(error); });
    pending.clear();
    if (worker) { worker.terminate(); }
    if (window.console) { console.warn("Muster engine:", reason); }
  }

  // What the worker loads: kept by the service worker for offline use. A page whose engine
  // started before the service worker controlled it (its first visit) says so once it does.
  var RUNTIME_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
    "pyodide-lock.json"];
  function keepForOffline() {
    if (!navigator.serviceWorker) { return; }
    var tell = function () {
      var controller = navigator.serviceWorker.controller;
      if (!controller) { return false; }
      controller.postMessage({ type: "engine", urls: [urls.worker, urls.rules].concat(
        RUNTIME_FILES.map(function (name) { return urls.runtime + name; })) });
      return true;
    };
    if (!tell()) {
      navigator.serviceWorker.addEventListener("controllerchange", tell, { once: true });
    }
  }

  function answered(message) {
    var waiting = pending.get(message.id);
    if (!waiting) { return; }
    pending.delete(message.id);
    var answer;
    try { answer = JSON.parse(message.answer); } catch (e) { answer = { error: "BadAnswer: " + e }; }
    if (answer && Object.prototype.hasOwnProperty.call(answer, "ok")) { waiting.resolve(answer.ok); }
    else { waiting.reject(new Error(answer && answer.error || "no answer")); }
  }

  function start() {
    if (!urls) { settle.reject(new Error("no engine on this page")); return ready; }
    if (worker || engine.status === "failed") { return ready; }
    try {
      worker = new Worker(urls.worker, { type: "module", name: "muster-engine" });
    } catch (e) {
      fail(String(e));
      return ready;
    }
    setStatus("loading");
    worker.onmessage = function (event) {
      var message = event.data || {};
      if (message.type === "answer") { answered(message); }
      else if (message.type === "ready") {
        engine.readyMs = message.ms;
        engine.info = message.info;
        setStatus("ready");
        settle.resolve(message.info);
        keepForOffline();
      } else if (message.type === "failed") { fail(message.error); }
    };
    worker.onerror = function (event) {
      fail(event && event.message ? event.message : "the worker stopped");
    };
    worker.postMessage({ type: "start", urls: urls });
    return ready;
  }

  function call(target, args) {
    if (!urls) { return Promise.reject(new Error("no engine on this page")); }
    if (engine.status === "failed") { return Promise.reject(new Error("the engine could not start")); }
    start();
    return new Promise(function (resolve, reject) {
      var id = nextId++;
      pending.set(id, { resolve: resolve, reject: reject });
      worker.postMessage({ type: "call", id: id, target: target, args: JSON.stringify(args || {}) });
    });
  }

  window.MusterEngine = engine;
  window.addEventListener("online", drawStatus);
  window.addEventListener("offline", drawStatus);
  document.addEventListener("DOMContentLoaded", drawStatus);
  document.addEventListener("htmx:afterSettle", drawStatus);

  function startWhenIdle() {
    if (!urls || !document.querySelector("[data-engine-status]")) { return; }
    var go = function () { start(); };
    if (window.requestIdleCallback) { window.requestIdleCallback(go, { timeout: 1500 }); }
    else { setTimeout(go, 200); }
  }
  if (document.readyState === "complete") { startWhenIdle(); }
  else { window.addEventListener("load", startWhenIdle); }
})();
