// The Python side of the standalone build (scripts/build_standalone.py runs this): the
// app's wheels and the project unpacked in Pyodide itself, the project compiled there to
// its own bytecode (the packages' modules a start imports are, by standalone/ahead.mjs),
// babel's locale data cut to the app's languages (32 MB of every language: 1 MB), and
// written out as two zips the page unpacks at start.
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
import compileall, os, py_compile, shutil, zipfile
from pathlib import Path

# Babel's data for the app's languages only: each one, the language it falls back on
# (pt_BR: pt) and the root every locale starts from.
data = Path(SITE) / "babel" / "locale-data"
keep = {"root"} | {code for tag in LANGUAGES for code in (tag, tag.split("_")[0])}
for file in data.glob("*.dat"):
    if file.stem not in keep:
        file.unlink()
# What the app never loads in a phone: the packages' own test helpers, the dialects of
# databases a phone has none of (alembic's DDL imports the PostgreSQL one), and pytz's
# time zones but UTC (the only one the app formats dates in: Flask-Babel's default).
for gone in ("sqlalchemy/testing", "alembic/testing", "sqlalchemy/dialects/mysql",
             "sqlalchemy/dialects/mssql", "sqlalchemy/dialects/oracle", "sqlalchemy/ext/asyncio"):
    shutil.rmtree(Path(SITE) / gone)
# WTForms' own messages in the app's languages only.
for folder in (Path(SITE) / "wtforms" / "locale").iterdir():
    if folder.is_dir() and folder.name not in keep:
        shutil.rmtree(folder)
# Nor the wheels' lists of their files (nothing reads them as the app runs), nor type hints.
for record in Path(SITE).glob("*.dist-info/RECORD"):
    record.unlink()
for file in (Path(SITE) / "pytz" / "zoneinfo").rglob("*"):
    if file.is_file() and file.name != "UTC":
        file.unlink()
# The project's bytecode, as it runs here; the packages' is made by standalone/ahead.mjs
# for the modules a start imports.
# Their check a hash of the source, not its time: a build of the same files is the same
# build (its version too), and phones download nothing new.
compileall.compile_dir(
    "/app", quiet=1, legacy=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
)

def pack(name, root, sources):
    """root's files into /out/name, stored, not deflated: compressed as one stream on
    the way (gzip: a tenth smaller than file by file). A module's source is left out
    where its bytecode stands for it, but for those under sources (alembic reads the
    migrations' own)."""
    with zipfile.ZipFile(f"/out/{name}", "w", zipfile.ZIP_STORED) as archive:
        for folder, folders, files in os.walk(root):
            folders.sort()
            for file in sorted(files):
                full = os.path.join(folder, file)
                if not full.startswith(sources) and file.endswith(".py") and os.path.exists(full + "c"):
                    continue
                if file.endswith((".po", ".pot")):  # the catalogs' sources: .mo is read
                    continue
                # Dated 1980 (zip's first day), not when unpacked: the same files, the same zip.
                entry = zipfile.ZipInfo(os.path.relpath(full, root))
                with open(full, "rb") as data:
                    archive.writestr(entry, data.read())

pack("site.zip", SITE, sources=())
pack("app.zip", "/app", sources=("/app/migrations/",))
`);
