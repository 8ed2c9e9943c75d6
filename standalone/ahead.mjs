// The modules a start imports, compiled ahead (scripts/build_standalone.py runs this once
// the build's zips are made). Pyodide ships its standard library as sources, compiled
// again at every start (3 s of a start in Node here), and so would the packages be.
// Bytecode is bigger than sources (gzip: 1.6 times), so not everything is: the build
// starts the app here, asks it for its first pages (and the rules page, and a seating's
// check), and compiles what that imported from the standard library (python_stdlib.zip)
// and the packages (site.zip), without docstrings or asserts (-OO); but not the packages
// only a start that migrates imports (a new version's first start, when its migrations
// changed: MIGRATING). The rest stays as sources, compiled when imported. A module with
// only bytecode is loaded whatever the running Python's -O. The empty database that
// start migrated is kept too, and the app's templates, compiled.
//
//   node standalone/ahead.mjs BUILD
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { boot } from "./boot.mjs";

const [build] = process.argv.slice(2);
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "nomercy-ahead-"));
try {
  const app = await boot(path.resolve(build), folder);
  app.py.FS.mkdirTree("/build");
  app.py.FS.mount(app.py.FS.filesystems.NODEFS, { root: path.resolve(build) }, "/build");
  // The empty database this start's migrations made, before any page is asked for: in
  // the project's zip, a phone's first start copies it (companion/standalone.py's
  // BUILT_DATABASE) in place of migrating one, with alembic, about a second there.
  app.py.runPython(`
import sqlite3, zipfile

def add_to_project(files):
    """Files (name: bytes) added to the project's zip, dated as its every entry is: a
    build's version is a digest of its files' bytes."""
    with zipfile.ZipFile("/build/python/app.zip", "a") as project:
        for name, data in files.items():
            project.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)

made = sqlite3.connect(FOLDER + "/companion.sqlite3")
made.execute("VACUUM INTO '/tmp/built.sqlite3'")
made.close()
add_to_project({"built.sqlite3": Path("/tmp/built.sqlite3").read_bytes()})
`);
  // The templates, compiled by this Python to its bytecode: a phone's first render of a
  // page compiles nothing (companion/standalone.py's compile_templates, COMPILED_TEMPLATES).
  app.py.runPython(`
from companion.standalone import compile_templates
compiled = Path("/tmp/compiled_templates")
compiled.mkdir()
templates = compile_templates(phone.app, compiled)
add_to_project({f"compiled_templates/{m.name}": m.read_bytes() for m in sorted(compiled.iterdir())})
print(f"make standalone: {templates} templates compiled ahead")
`);
  // The rules page (a table's argument) and a seating's look-alike check too: they import
  // what a start leaves for later (companion.ON_FIRST_USE), compiled here all the same.
  for (const page of ["/", "/new", "/rules"]) {
    const { status } = app.answer("GET", page, [["Accept-Language", "en"]]);
    if (status !== 200) throw new Error(`make standalone: ${page} answered ${status}`);
  }
  app.py.runPython("import confusable_homoglyphs.confusables");
  // The methods dataclasses wrote for the classes this start made, compiled by this
  // Python: a phone's start compiles none of them (companion/dataclass_code.py).
  app.py.runPython(`
kept = phone.dataclass_code.save(Path("/tmp/dataclass_code.marshal"))
add_to_project({"dataclass_code.marshal": Path("/tmp/dataclass_code.marshal").read_bytes()})
print(f"make standalone: {kept} sources of dataclasses' methods compiled ahead")
`);
  app.py.runPython(`
import io, py_compile, site, sys, zipfile

MIGRATING = ("alembic", "mako", "flask_migrate")
imported = {
    module.__file__ for name, module in list(sys.modules.items())
    if (getattr(module, "__file__", None) or "").endswith(".py")
    and name.partition(".")[0] not in MIGRATING
}

def compile_ahead(zip_path, root):
    """The modules under root (where the zip's files are imported from) that a start
    imported, as bytecode in place of their sources."""
    with zipfile.ZipFile(zip_path) as whole:
        entries = [(entry, whole.read(entry)) for entry in whole.infolist()]
    out, compiled = io.BytesIO(), 0
    with zipfile.ZipFile(out, "w") as kept:
        for entry, data in entries:
            name = f"{root}/{entry.filename}"
            if name not in imported:
                kept.writestr(entry, data)
                continue
            with open("/tmp/module.py", "wb") as source:
                source.write(data)
            py_compile.compile(
                "/tmp/module.py",
                cfile="/tmp/module.pyc",
                dfile=name,
                doraise=True,
                optimize=2,
                invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
            )
            with open("/tmp/module.pyc", "rb") as made:
                bytecode = zipfile.ZipInfo(entry.filename + "c", entry.date_time)
                kept.writestr(bytecode, made.read())
            compiled += 1
    with open(zip_path, "wb") as file:
        file.write(out.getvalue())
    return compiled

stdlib = next(entry for entry in sys.path if entry.endswith(".zip"))
modules = compile_ahead("/build/pyodide/python_stdlib.zip", stdlib)
modules += compile_ahead("/build/python/site.zip", site.getsitepackages()[0])
print(f"make standalone: {modules} modules a start imports compiled ahead")
`);
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
}
