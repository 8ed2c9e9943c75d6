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

// The bytes keepFile downloads for file.
self.downloadSize = function (file) {
  return file[2] && typeof DecompressionStream === "function" ? file[2] : file[1];
};

// file: [path, size, size of path + ".gz" if the build made one], downloaded into cache;
// counted(bytes) is told of each part received. The bytes go to the cache as they come,
// unpacked on the way: the page never holds a whole file (the packages are 14.5 MB
// unpacked), nor a copy of one in a Blob to unpack. Resolves once the file is kept; else
// rejects with a TypeError if the network failed (said as no connection), or an Error
// that says which file failed and why.
self.keepFile = function (cache, file, counted) {
  var url = new URL(file[0], self.location.href).href;
  var packed = self.downloadSize(file) !== file[1];
  var asked = file[0] + (packed ? ".gz" : "");
  var answered = false;
  var failed = null; // what failed while the body came (the network, or its bytes)
  function fail(error) { failed = failed || error; throw error; }
  return fetch(packed ? url + ".gz" : url, { cache: "no-cache" }).then(function (response) {
    answered = true;
    if (!response.ok) {
      if (response.body) { response.body.cancel(); } // not downloaded for nothing
      throw new Error(asked + ": " + response.status);
    }
    return received(response.body, counted, fail).then(function (body) {
      var type = response.headers.get("Content-Type") || "application/octet-stream";
      var stream = body.stream;
      if (packed) {
        // A host that marks .gz files Content-Encoding: gzip had them unpacked already.
        var gzipped = body.start[0] === 0x1f && body.start[1] === 0x8b;
        stream = (gzipped ? unpacked(stream, asked, fail) : stream).pipeThrough(sized(file, fail));
        type = FILE_TYPES[file[0].split(".").pop()] || "application/octet-stream";
      }
      return cache.put(url, new Response(stream, { headers: { "Content-Type": type } }));
    });
  }).catch(function (error) {
    // The network's TypeError (before an answer, or as the body came), what was wrong
    // with the bytes, the host's answer: each says so already. Else the cache refused
    // it (a full phone): said as this file's.
    var said = String((error && error.message) || error);
    if (failed || !answered || said.indexOf(asked) === 0) { throw failed || error; }
    throw new Error(asked + ": " + said);
  });
};

// The body again, as a stream counted as it is read, and its first two bytes (read
// first: a .gz file's start says whether the host unpacked it already). fail(error) is
// told if reading it fails (the network), and throws it.
function received(body, counted, fail) {
  var reader = body.getReader();
  var first = [], seen = 0;
  function read() {
    return reader.read().then(function (part) {
      if (part.done) { return true; }
      first.push(part.value);
      seen += part.value.byteLength;
      if (counted) { counted(part.value.byteLength); }
      return seen >= 2 ? false : read();
    }, fail);
  }
  return read().then(function (done) {
    var start = new Uint8Array(2);
    var at = 0;
    first.forEach(function (chunk) {
      for (var i = 0; i < chunk.byteLength && at < 2; i++) { start[at++] = chunk[i]; }
    });
    var stream = new ReadableStream({
      start: function (controller) {
        first.forEach(function (chunk) { controller.enqueue(chunk); });
        if (done) { controller.close(); }
      },
      pull: function (controller) {
        return reader.read().then(function (part) {
          if (part.done) { controller.close(); return; }
          if (counted) { counted(part.value.byteLength); }
          controller.enqueue(part.value);
        }, fail);
      },
      cancel: function (why) { return reader.cancel(why); },
    });
    return { start: start, stream: stream };
  });
}

// The .gz bytes unpacked as they come; bytes gzip did not write fail as the file's
// (fail), not as DecompressionStream's TypeError, which would say "no connection".
function unpacked(stream, asked, fail) {
  var reader = stream.pipeThrough(new DecompressionStream("gzip")).getReader();
  return new ReadableStream({
    pull: function (controller) {
      return reader.read().then(function (part) {
        if (part.done) { controller.close(); } else { controller.enqueue(part.value); }
      }, function (error) {
        fail(new Error(asked + ": not what the build packed (" + error.message + ")"));
      });
    },
    cancel: function (why) { return reader.cancel(why); },
  });
}

// The unpacked bytes passed on as they come; the stream fails at its end (fail) if they
// are not the file's size (a host that changed the file, or a file of another build).
function sized(file, fail) {
  var size = 0;
  return new TransformStream({
    transform: function (chunk, controller) {
      size += chunk.byteLength;
      controller.enqueue(chunk);
    },
    flush: function () {
      if (size !== file[1]) { fail(new Error(file[0] + ": " + size + " bytes, not " + file[1])); }
    },
  });
}
