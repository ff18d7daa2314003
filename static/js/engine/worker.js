/* The rules engine in the page: this Web Worker runs the very `rules/` package the server
 * runs, in Pyodide (CPython for WebAssembly), so a page works out points, legality, stat
 * lines and a combat's hits at once and offline. Started by static/js/engine/client.js with
 * the runtime's and the engine's URLs (armybuilder/pageengine.py); each call is
 * {id, target: "rules.page.<module>:<function>", args: "<JSON object>"} and is answered
 * {id, answer: "<JSON>"} through rules/page/bridge.py, in the order asked. Nothing here
 * knows a rule. */
"use strict";

let bridge = null;
let starting = null;

async function start(urls) {
  const began = performance.now();
  const { loadPyodide } = await import(urls.runtime + "pyodide.mjs");
  const archive = fetch(urls.rules, { credentials: "same-origin" }).then(function (response) {
    if (!response.ok) { throw new Error("the engine archive answered " + response.status); }
    return response.arrayBuffer();
  });
  archive.catch(function () {});  // said below, when awaited: never an unhandled rejection
  const pyodide = await loadPyodide({ indexURL: urls.runtime });
  pyodide.unpackArchive(await archive, "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
  bridge = pyodide.pyimport("rules.page.bridge");
  const ping = JSON.parse(bridge.call("rules.page.status:ping", "{}"));
  if (ping.error) { throw new Error(ping.error); }
  return { info: ping.ok, ms: performance.now() - began };
}

self.onmessage = async function (event) {
  const message = event.data || {};
  if (message.type === "start" && !starting) {
    starting = start(message.urls);
    try {
      const ready = await starting;
      self.postMessage({ type: "ready", info: ready.info, ms: ready.ms });
    } catch (failure) {
      self.postMessage({ type: "failed", error: String(failure && failure.message || failure) });
    }
  } else if (message.type === "call") {
    let answer;
    try {
      await starting;  // calls asked before the engine was ready wait, in their order
      const began = performance.now();
      answer = bridge.call(String(message.target), String(message.args || "{}"));
      self.postMessage({ type: "answer", id: message.id, answer: answer, ms: performance.now() - began });
    } catch (failure) {
      answer = JSON.stringify({ error: "EngineUnavailable: " + String(failure && failure.message || failure) });
      self.postMessage({ type: "answer", id: message.id, answer: answer });
    }
  }
};
