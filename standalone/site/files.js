// How a build's file is downloaded, for the page's first visit (shell.js) and for a new
// version's service worker (sw.js) alike. The large files (Pyodide's runtime, the zips)
// are downloaded as the .gz the build made beside them and unpacked here: whatever the
// host (one that compresses nothing, or not zips) sends those same bytes (12 MB, not
// 35), and the cache keeps them unpacked, under the file's own name and type.
"use strict";

// The types the gzipped files are kept with (WebAssembly is compiled as it streams only
// when served as application/wasm).
var FILE_TYPES = {
  wasm: "application/wasm",
  mjs: "text/javascript",
  js: "text/javascript",
  json: "application/json",
  zip: "application/zip",
};

// Needed last: the app's packages and the project (5.5 MB of the 11.8 downloaded). The
// app's worker needs them only once Pyodide's runtime is up, so on a first visit it
// starts as soon as the rest is kept, while these still download (shell.js), and the
// service worker serves each of these once the page has kept it (sw.js).
self.KEPT_LAST = ["python/site.zip", "python/app.zip"];

// The bytes downloadFile downloads for file.
self.downloadSize = function (file) {
  return file[2] && typeof DecompressionStream === "function" ? file[2] : file[1];
};

// file: [path, size, size of path + ".gz" if the build made one]; counted(bytes) is told
// of each part received. A Response to keep, or an Error saying which file failed.
self.downloadFile = function (file, counted) {
  var url = new URL(file[0], self.location.href).href;
  var packed = self.downloadSize(file) !== file[1];
  return fetch(packed ? url + ".gz" : url, { cache: "no-cache" }).then(function (response) {
    if (!response.ok) { throw new Error(file[0] + (packed ? ".gz" : "") + ": " + response.status); }
    var reader = response.body.getReader();
    var chunks = [];
    function read() {
      return reader.read().then(function (part) {
        if (part.done) { return new Blob(chunks); }
        chunks.push(part.value);
        if (counted) { counted(part.value.byteLength); }
        return read();
      });
    }
    return read().then(function (body) {
      var type = response.headers.get("Content-Type") || "application/octet-stream";
      if (!packed) { return new Response(body, { headers: { "Content-Type": type } }); }
      return body.slice(0, 2).arrayBuffer().then(function (start) {
        var magic = new Uint8Array(start);
        // A host that marks .gz files Content-Encoding: gzip had them unpacked already.
        var gzipped = magic[0] === 0x1f && magic[1] === 0x8b;
        var unpacked = gzipped
          ? new Response(body.stream().pipeThrough(new DecompressionStream("gzip"))).blob()
          : Promise.resolve(body);
        return unpacked.then(function (whole) {
          if (whole.size !== file[1]) {
            throw new Error(file[0] + ": " + whole.size + " bytes, not " + file[1]);
          }
          var kept = FILE_TYPES[file[0].split(".").pop()] || "application/octet-stream";
          return new Response(whole, { headers: { "Content-Type": kept } });
        });
      });
    });
  });
};
