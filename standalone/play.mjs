// The standalone app in Node, for the tests and the measurements: boots the build at
// BUILD on FOLDER, asks for the home page from JavaScript as the page's worker will,
// then runs the Python read from standard input with the bridge as `phone`.
//
//   node standalone/play.mjs BUILD FOLDER [CONFIG_JSON] < scenario.py
// Prints one JSON line: the timings, the home page's status, and what the scenario
// left in `said`.
import fs from "node:fs";
import { boot } from "./boot.mjs";

const [build, folder, config] = process.argv.slice(2);
process.on("uncaughtException", (error) => {
  // Pyodide's own stack quotes its whole minified source: the Python error is enough.
  console.error(String(error.message ?? error).slice(0, 4000));
  process.exit(1);
});
const app = await boot(build, folder, JSON.parse(config ?? "{}"));
const home = app.answer("GET", "/", [["Accept-Language", "en"]]);
const started = Date.now();
app.py.runPython("said = {}");
app.py.runPython(fs.readFileSync(0, "utf8"));
const said = app.py.globals.get("said").toJs({ dict_converter: Object.fromEntries });
const text = new TextDecoder().decode(home.body);
console.log(
  JSON.stringify({
    timings: { ...app.timings, scenario: Date.now() - started },
    home: { status: home.status, title: text.match(/<title>([^<]*)</)?.[1] },
    said,
  }),
);
