// The app's Python (make standalone): Pyodide, the app's packages and the project
// unpacked from the build's zips, its folder (database, cookies) kept in the browser's
// IndexedDB, and companion/standalone.py's bridge answering the requests the page hands
// over (shell.js), one at a time. After an answer that changed the folder, the folder is
// written back to IndexedDB before the answer leaves: a line the table saw is kept.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = new URL(".", self.location.href);
const FOLDER = "/data"; // IndexedDB's copy; the app's files in FOLDER/phone

function sync(py, fromStorage) {
  return new Promise((resolve, reject) =>
    py.FS.syncfs(fromStorage, (error) => (error ? reject(error) : resolve())),
  );
}

async function fetched(path) {
  const response = await fetch(new URL(path, here));
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function start() {
  const started = performance.now();
  const [py, site, app] = await Promise.all([
    loadPyodide({ indexURL: new URL("pyodide/", here).href }),
    fetched("python/site.zip"),
    fetched("python/app.zip"),
  ]);
  const runtime = performance.now() - started;
  py.unpackArchive(site, "zip", { extractDir: py.runPython("import site; site.getsitepackages()[0]") });
  py.FS.mkdirTree("/app");
  py.unpackArchive(app, "zip", { extractDir: "/app" });
  py.FS.mkdirTree(FOLDER);
  py.FS.mount(py.FS.filesystems.IDBFS, {}, FOLDER);
  await sync(py, true);
  py.globals.set("FOLDER", FOLDER + "/phone");
  py.globals.set("ROOT", new URL("app", here).pathname);
  py.runPython(`
import sys
from pathlib import Path
sys.path.insert(0, "/app")
from companion.standalone import Standalone
phone = Standalone(Path(FOLDER), root=ROOT)
`);
  await sync(py, false); // the database made or migrated at start
  return { py, phone: py.globals.get("phone"), timings: { runtime, app: performance.now() - started - runtime } };
}

function failure(error) {
  // Pyodide's errors quote its whole minified source: the Python error is enough.
  return String((error && error.message) || error).slice(-2000);
}

let queue = Promise.resolve();
try {
  const { py, phone, timings } = await start();
  self.onmessage = (event) => {
    const port = event.ports[0];
    queue = queue.then(() => answer(py, phone, event.data, port));
  };
  self.postMessage({ type: "ready", timings });
} catch (error) {
  self.postMessage({ type: "failed", message: failure(error) });
}

async function answer(py, phone, request, port) {
  let reply;
  try {
    const started = performance.now();
    const body = request.body ? new Uint8Array(request.body) : new Uint8Array();
    const given = phone.answer(request.method, request.url, py.toPy(request.headers), py.toPy(body));
    let wrote;
    try {
      reply = { status: given.status, headers: given.headers.toJs(), body: given.body.toJs() };
      wrote = given.wrote;
    } finally {
      given.destroy();
    }
    const answered = performance.now();
    if (wrote) await sync(py, false);
    reply.headers.push(["Server-Timing", `app;dur=${(answered - started).toFixed(1)}, kept;dur=${(performance.now() - answered).toFixed(1)}`]);
  } catch (error) {
    const said = new TextEncoder().encode(failure(error));
    reply = { status: 500, headers: [["Content-Type", "text/plain; charset=utf-8"]], body: said };
  }
  port.postMessage(reply, [reply.body.buffer]);
}
