// The page engine under Node: the same Pyodide files and rules archive the page's worker
// loads (static/js/engine/worker.js), answering one JSON call a line on stdin:
//   {"id": 1, "target": "rules.page.status:ping", "args": {}}
// and writing {"id": 1, "ok": ...} or {"id": 1, "error": "..."} a line on stdout.
// Usage: node node_engine.mjs <runtime dir> <rules.zip>
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [runtime, archive] = process.argv.slice(2);
const index = path.resolve(runtime) + path.sep;
const { loadPyodide } = await import(pathToFileURL(index + "pyodide.mjs").href);
const started = performance.now();
const pyodide = await loadPyodide({ indexURL: index });
pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: "/engine" });
pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
const bridge = pyodide.pyimport("rules.page.bridge");
process.stdout.write(JSON.stringify({ ready: true, ms: performance.now() - started }) + "\n");

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) { continue; }
  let id = null;
  try {
    const request = JSON.parse(line);
    id = request.id;
    const args = JSON.stringify(request.args || {});
    const began = performance.now();
    const answer = JSON.parse(bridge.call(request.target, args));
    // the engine's own time for the call: the page's worker pays this, not the transport
    const ms = performance.now() - began;
    process.stdout.write(JSON.stringify({ id, ms, ...answer }) + "\n");
  } catch (failure) {
    process.stdout.write(JSON.stringify({ id, error: String(failure) }) + "\n");
  }
}
process.exit(0);
