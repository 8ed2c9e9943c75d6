// The Python side of the standalone build (scripts/build_standalone.py runs this): the
// app's wheels and the project unpacked in Pyodide itself, compiled there to its own
// bytecode (a first start then compiles nothing: 4 s less on this machine), babel's
// locale data cut to the app's languages (32 MB of every language: 1 MB), and written
// out as two zips the page unpacks at start.
//
//   node standalone/bundle.mjs WHEELS_DIR PROJECT_ZIP OUT_DIR LANGUAGES
import fs from "node:fs";
import path from "node:path";
import { loadPyodide } from "pyodide";

const [wheels, project, out, languages] = process.argv.slice(2);
const py = await loadPyodide();
const site = py.runPython("import site; site.getsitepackages()[0]");
for (const name of fs.readdirSync(wheels).filter((n) => n.endsWith(".whl")).sort()) {
  py.unpackArchive(new Uint8Array(fs.readFileSync(path.join(wheels, name))), "wheel", {
    extractDir: site,
  });
}
py.FS.mkdirTree("/app");
py.unpackArchive(new Uint8Array(fs.readFileSync(project)), "zip", { extractDir: "/app" });
fs.mkdirSync(out, { recursive: true });
py.FS.mkdirTree("/out");
py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(out) }, "/out");
py.globals.set("SITE", site);
py.globals.set("LANGUAGES", languages.split(","));
py.runPython(`
import compileall, os, zipfile
from pathlib import Path

# Babel's data for the app's languages only: each one, the language it falls back on
# (pt_BR: pt) and the root every locale starts from.
data = Path(SITE) / "babel" / "locale-data"
keep = {"root"} | {code for tag in LANGUAGES for code in (tag, tag.split("_")[0])}
for file in data.glob("*.dat"):
    if file.stem not in keep:
        file.unlink()
for folder in ("/app", SITE):
    compileall.compile_dir(folder, quiet=1, legacy=True)

def pack(name, root, sources):
    """root's files into /out/name; a module's source left out where its bytecode stands
    for it (sources=False), or kept beside it (the project: alembic reads its migrations'
    sources, and a traceback shows the line)."""
    with zipfile.ZipFile(f"/out/{name}", "w", zipfile.ZIP_DEFLATED) as archive:
        for folder, _, files in os.walk(root):
            for file in sorted(files):
                full = os.path.join(folder, file)
                if not sources and file.endswith(".py") and os.path.exists(full + "c"):
                    continue
                archive.write(full, os.path.relpath(full, root))

pack("site.zip", SITE, sources=False)
pack("app.zip", "/app", sources=True)
`);
