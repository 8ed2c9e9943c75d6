// The standalone app started in a Pyodide: the runtime, the two zips of the build
// (standalone/bundle.mjs) unpacked, and companion/standalone.py's bridge made on a
// folder that keeps the database and the phone's cookies. `answer` hands it a request
// as a page sends one and gives back the app's answer.
//
// In Node here (the tests, the measurements); the page's worker reads the same zips from
// the build's own files.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { unpackStored } from "./site/unpack.mjs"; // as the page's worker unpacks them

export async function boot(build, folder, config = {}) {
  const { loadPyodide } = await import(pathToFileURL(path.join(build, "pyodide", "pyodide.mjs")));
  const started = Date.now();
  const py = await loadPyodide({ indexURL: path.join(build, "pyodide") + path.sep });
  const runtime = Date.now() - started;
  const site = py.runPython("import site; site.getsitepackages()[0]");
  const unpack = (name, into) =>
    unpackStored(py.FS, new Uint8Array(fs.readFileSync(path.join(build, "python", name))), into);
  unpack("site.zip", site);
  unpack("app.zip", "/app");
  // The folder itself, kept on this machine's disk: a second start finds what the first kept.
  fs.mkdirSync(folder, { recursive: true });
  py.FS.mkdirTree(folder);
  py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, folder);
  py.globals.set("FOLDER", folder);
  py.globals.set("CONFIG", JSON.stringify(config));
  py.runPython(`
import json, sys
from pathlib import Path
sys.path.insert(0, "/app")
from companion.standalone import Standalone
phone = Standalone(Path(FOLDER), json.loads(CONFIG))
`);
  const phone = py.globals.get("phone");
  return {
    py,
    phone,
    timings: { runtime, app: Date.now() - started - runtime },
    answer(method, url, headers = [], body = new Uint8Array()) {
      const given = phone.answer(method, url, py.toPy(headers), py.toPy(body));
      try {
        return {
          status: given.status,
          headers: given.headers.toJs(),
          body: given.body.toJs(),
        };
      } finally {
        given.destroy();
      }
    },
  };
}
