// The app in the phone, checked in Firefox (make check-firefox): Debian's firefox-esr,
// driven over WebDriver BiDi by puppeteer-core (package.json here, pinned), since
// Playwright drives only the Firefox it builds itself. Not part of `make test`: the
// browser tests run in Chromium (tests/browser/test_standalone.py); this is the same
// walk, shorter, in a second engine.
//
//   node standalone/firefox/check.mjs build/standalone
//
// The built site served from a static server on loopback (no app server): a first
// visit, a new match of three, its start card and a card played, each line on the
// table; then a reload, with the same record kept. Prints what it saw and the start's
// figures; exits 1 with the step that failed.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import puppeteer from "puppeteer-core";

const FIREFOX = process.env.FIREFOX || "/usr/bin/firefox-esr";
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".zip": "application/zip",
  ".gz": "application/gzip",
};
// Firefox logs this for every form post its service worker answers with a redirect,
// though it follows the redirect and the table comes (checked below): its own noise,
// taken at most once for each of the walk's posts (the new match, two taps).
const REDIRECT_NOISE = /A ServiceWorker intercepted the request and encountered an unexpected error/;
const POSTS = 3;
const NUMBER_CARD = /^(Red|Yellow|Green|Blue) [1-689]$/; // plays at once (0 and 7 ask)

const build = path.resolve(process.argv[2] || "build/standalone");
if (!fs.existsSync(path.join(build, "build.js"))) {
  console.error(`check-firefox: no built site at ${build} (make standalone)`);
  process.exit(1);
}

function serve(root) {
  const server = http.createServer((request, response) => {
    try {
      const asked = decodeURIComponent(new URL(request.url, "http://x").pathname);
      let file = path.join(root, asked);
      const inside = path.relative(root, file);
      if (inside.startsWith("..") || path.isAbsolute(inside)) { response.writeHead(403).end(); return; }
      if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
      fs.readFile(file, (error, body) => {
        if (error) { response.writeHead(404).end(); return; }
        const type = TYPES[path.extname(file)] || "application/octet-stream";
        response.writeHead(200, { "Content-Type": type, "Cache-Control": "no-cache" }).end(body);
      });
    } catch {
      response.writeHead(400).end(); // a malformed address: never the check's own failure
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const pause = (ms) => new Promise((done) => setTimeout(done, ms));
let step = "starting Firefox";
const errors = [];

async function appFrame(page) {
  await page.waitForSelector("#app:not([hidden])", { timeout: 180_000 });
  for (let i = 0; i < 300; i++) {
    const frame = page.frames().find((f) => f.url().includes("/app"));
    if (frame && (await frame.$("main").catch(() => null))) return frame;
    await pause(200);
  }
  throw new Error("the app's frame never showed a page");
}

// A tap as a person makes one: on a table shown longer than its tap guard's settle time
// (data-settle, companion/taps.py), then the next table awaited.
async function tap(frame, selector) {
  const version = await frame.$eval("#table", (t) => t.dataset.version);
  const settle = Number(await frame.$eval("#table", (t) => t.dataset.settle)) || 0;
  await pause(settle + 300);
  const started = Date.now();
  await (await frame.waitForSelector(selector)).click();
  await frame.waitForFunction(
    (v) => (document.querySelector("#table") || { dataset: {} }).dataset.version !== v,
    { timeout: 30_000 },
    version,
  );
  return Date.now() - started;
}

async function record(frame, table) {
  return frame.evaluate(async (at) => (await fetch(at + "/record.txt")).text(), table);
}

const server = await serve(path.dirname(build));
const site = `http://127.0.0.1:${server.address().port}/${path.basename(build)}/`;
let browser = null;
try {
  browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true });
  const page = await browser.newPage();
  await page.setViewport({ width: 390, height: 844 });
  let noise = 0;
  page.on("pageerror", (error) => {
    if (REDIRECT_NOISE.test(String(error)) && ++noise <= POSTS) return;
    errors.push(`${step}: ${String(error).slice(0, 300)}`);
  });
  console.log(`check-firefox: ${await browser.version()}, the site at ${site}`);

  step = "a first visit";
  let began = Date.now();
  await page.goto(site);
  let frame = await appFrame(page);
  const started = await page.evaluate("self.STARTED");
  const figures = Object.entries(started).map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`);
  console.log(`  first visit: the app shown in ${((Date.now() - began) / 1000).toFixed(2)} s (${figures.join(", ")})`);

  step = "a new match";
  await frame.goto(new URL("app/new", site).href);
  for (const [i, name] of ["Ann", "Bob", "Cy"].entries()) await frame.type(`#players-${i}`, name);
  const [start] = await frame.$$("xpath/.//button[contains(., 'Start the match')]");
  await Promise.all([frame.waitForNavigation(), start.click()]);
  await frame.waitForSelector("#table");
  const table = new URL(frame.url()).pathname;

  step = "the start card";
  await tap(frame, '[aria-label^="Start with"]');
  step = "a card played";
  const card = await frame.$$eval(".keyboard [aria-label]", (keys, pattern) =>
    keys.map((k) => k.getAttribute("aria-label")).find((l) => new RegExp(pattern).test(l)),
  NUMBER_CARD.source);
  if (!card) throw new Error("the keyboard shows no number card to play");
  const took = await tap(frame, `.keyboard [aria-label="${card}"]`);
  const kept = await record(frame, table);
  const lines = kept.split("\n").filter((l) => /^(start|Ann):/.test(l));
  if (lines.length !== 2) throw new Error(`the record holds ${JSON.stringify(kept)}`);
  console.log(`  a match of three: ${lines.join(", ")} (the card's tap to its table: ${took} ms)`);

  step = "a reload";
  began = Date.now();
  await page.reload();
  frame = await appFrame(page);
  const again = await record(frame, table);
  if (again !== kept) throw new Error(`after a reload the record holds ${JSON.stringify(again)}`);
  console.log(`  reloaded: the app shown in ${((Date.now() - began) / 1000).toFixed(2)} s, at ${new URL(frame.url()).pathname}, the record as kept`);

  step = "the page's errors";
  if (errors.length) throw new Error(errors.join("; "));
  console.log("check-firefox: passed");
} catch (error) {
  console.error(`check-firefox: failed at ${step}: ${error.message || error}`);
  if (errors.length && step !== "the page's errors") console.error(`  the page's errors: ${errors.join("; ")}`);
  process.exitCode = 1;
} finally {
  await browser?.close().catch(() => {});
  server.close();
}
