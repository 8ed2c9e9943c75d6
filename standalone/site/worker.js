// The app's Python (make standalone): Pyodide, the app's packages and the project
// unpacked from the build's zips, its folder (database, cookies) kept in the browser's
// IndexedDB, and companion/standalone.py's bridge answering the requests the page hands
// over (shell.js), one at a time. After an answer that changed the folder, the folder is
// written back to IndexedDB before the next request is answered, and before the answer
// itself leaves unless it is a redirect, which shows nothing (a tap's 303: the table it
// sends the page on to waits for the write): a line the table saw is kept (and if the
// browser refuses to keep it, the page says so until a later write succeeds).
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { unpackStored } from "./unpack.mjs";

const here = new URL(".", self.location.href);
// The only settings a page may give the app: the tap guard's timings (shell.js).
const GIVEN = JSON.parse(new URL(self.location.href).searchParams.get("settings") || "{}");
const SETTINGS = Object.fromEntries(
  ["TAP_SETTLE_MS", "TAP_REFRESH_MS"].filter((k) => k in GIVEN).map((k) => [k, String(GIVEN[k])]),
);
const FOLDER = "/data"; // IndexedDB's copy; the app's files in FOLDER/phone
// A redirect's answer shows nothing: it leaves before the write, which the next request
// (the page it sends the browser on to) waits for. At 4x slower, the write was half of a
// tap's time in the worker: it now runs while the browser follows the redirect.
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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
  const steps = { runtime: performance.now() - started };
  let last = performance.now();
  const step = (name) => {
    steps[name] = performance.now() - last;
    last = performance.now();
  };
  unpackStored(py.FS, site, py.runPython("import site; site.getsitepackages()[0]"));
  unpackStored(py.FS, app, "/app");
  step("unpacked");
  py.FS.mkdirTree(FOLDER);
  py.FS.mount(py.FS.filesystems.IDBFS, {}, FOLDER);
  await sync(py, true);
  step("storage");
  py.globals.set("FOLDER", FOLDER + "/phone");
  py.globals.set("ROOT", new URL("app", here).pathname);
  py.globals.set("SETTINGS", JSON.stringify(SETTINGS));
  py.runPython(`
import sys
from pathlib import Path
sys.path.insert(0, "/app")
import companion.standalone, flask_sqlalchemy, flask_wtf, flask_babel
`);
  step("imported");
  py.runPython(`
import json
from companion.standalone import Standalone
phone = Standalone(Path(FOLDER), json.loads(SETTINGS), root=ROOT)
`);
  step("created");
  // The database copied from the build or migrated at start: if the browser refuses
  // to keep it, the app runs and the page says so (as after any change refused).
  let refused = null;
  await sync(py, false).catch((error) => { refused = error; });
  step("kept");
  const timings = { ...steps, app: performance.now() - started - steps.runtime };
  return { py, phone: py.globals.get("phone"), timings, refused };
}

function failure(error) {
  // Pyodide's errors quote its whole minified source: the Python error is enough.
  return String((error && error.message) || error).slice(-2000);
}

// A change the browser's storage refused to keep (full, or private browsing): the app
// has it in memory, and the next change's write (or the page's "keep") writes it too.
let unkept = false;
// What the start itself wrote (the phone's new database, or its migration) is not kept
// either, until a write succeeds: the page says so rather than "the last change".
let unkeptSinceStart = false;

async function keep(py) {
  try {
    await sync(py, false);
    if (unkept) self.postMessage({ type: "storage", kept: true });
    unkept = unkeptSinceStart = false;
  } catch (error) {
    unkept = true;
    const message = failure(error);
    self.postMessage({ type: "storage", kept: false, atStart: unkeptSinceStart, message });
  }
}

let queue = Promise.resolve();
try {
  const { py, phone, timings, refused } = await start();
  self.onmessage = (event) => {
    if (event.data && event.data.type === "keep") {
      queue = queue.then(() => keep(py));
      return;
    }
    const port = event.ports[0];
    // When this handler ran: a message that came during Python's work or a write's
    // synchronous part waited that long unseen (not counted).
    const arrived = performance.now();
    // One answer that fails (its port gone) must not stop the ones after it.
    queue = queue.then(() => answer(py, phone, event.data, port, arrived)).catch(() => {});
  };
  self.postMessage({ type: "ready", timings });
  if (refused) {
    unkept = unkeptSinceStart = true;
    self.postMessage({ type: "storage", kept: false, atStart: true, message: failure(refused) });
  }
} catch (error) {
  self.postMessage({ type: "failed", message: failure(error) });
}

async function answer(py, phone, request, port, arrived) {
  let reply;
  let keepAfter = false;
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
    keepAfter = wrote && REDIRECTS.has(reply.status);
    if (wrote && !keepAfter) await keep(py); // its answer is shown either way, as the app gave it
    // What the answer waited for: an earlier request or its write, Python, and its own
    // write when that comes first (a redirect's is measured after it left: `keptAfter`).
    const waited = started - arrived;
    const app = answered - started;
    const kept = performance.now() - answered;
    const timing = [`waited;dur=${waited.toFixed(1)}`, `app;dur=${app.toFixed(1)}`];
    if (!keepAfter) timing.push(`kept;dur=${kept.toFixed(1)}`);
    reply.headers.push(["Server-Timing", timing.join(", ")]);
    // The same figures for the page (its measurements), before the answer leaves.
    const method = request.method;
    self.postMessage({ type: "answered", method, url: request.url, waited, app, kept });
  } catch (error) {
    const said = new TextEncoder().encode(failure(error));
    reply = { status: 500, headers: [["Content-Type", "text/plain; charset=utf-8"]], body: said };
  }
  try {
    port.postMessage(reply, [reply.body.buffer]);
  } finally {
    if (keepAfter) {
      const writing = performance.now();
      await keep(py);
      // The redirect's own write, for the measurements (shell.js adds it to its answer).
      self.postMessage({ type: "keptAfter", url: request.url, ms: performance.now() - writing });
    }
  }
}
