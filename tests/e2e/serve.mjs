// A tiny static file server for dist/ on 127.0.0.1 (tests and benchmark).
// `node serve.mjs [dir] [port]` serves from the command line too.
import { createServer } from "node:http";
import { createReadStream, statSync } from "node:fs";
import { Transform } from "node:stream";
import { createGzip } from "node:zlib";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".onnx": "application/octet-stream",
};

export const DIST = resolve(fileURLToPath(new URL("../../dist", import.meta.url)));

/**
 * Serves `root`; resolves to { url, requests, close }. Port 0 picks a free one.
 * `headers` go on every file served (bench-stream.mjs: cross-origin isolation).
 * `bitsPerSecond` caps the bandwidth all responses share (bench-first-visit.mjs:
 * a 50 Mbit/s line).
 */
export function startServer(root = DIST, port = 0, headers = {}, { bitsPerSecond = 0, gzip = false } = {}) {
  // Every request the server saw, in order, with the bytes sent (the
  // privacy test and bench-first-visit.mjs read it).
  const requests = [];
  // [time, bytes sent in all] after each chunk sent (bench-first-visit.mjs).
  const sent = [];
  let total = 0;
  const line = bitsPerSecond ? throttle(bitsPerSecond / 8) : null;
  const counted = (record) =>
    new Transform({
      transform(chunk, _encoding, done) {
        record.bytes += chunk.length;
        total += chunk.length;
        sent.push([Date.now(), total]);
        done(null, chunk);
      },
    });
  const server = createServer((request, response) => {
    const record = { method: request.method, url: request.url, range: request.headers.range, bytes: 0, at: Date.now() };
    requests.push(record);
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, "index.html");
      const stat = statSync(file);
      // Validators, as static hosts give them: a revalidation costs no body.
      const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
      if (request.headers["if-none-match"] === etag) {
        response.writeHead(304, { etag, "cache-control": "no-cache", ...headers }).end();
        return;
      }
      // One byte range, as static hosts serve it (the worker fetches the
      // embedding table's blocks so: src/worker/table_blocks.rs).
      const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? "");
      const start = range ? Number(range[1]) : 0;
      const end = range && range[2] ? Math.min(Number(range[2]), stat.size - 1) : stat.size - 1;
      if (range && start > end) {
        response.writeHead(416, { "content-range": `bytes */${stat.size}` }).end();
        return;
      }
      // As a static host compresses whole files (bench-first-visit.mjs).
      const compress = gzip && !range && /\bgzip\b/.test(request.headers["accept-encoding"] ?? "");
      response.writeHead(range ? 206 : 200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        ...(compress ? { "content-encoding": "gzip" } : { "content-length": end - start + 1 }),
        "accept-ranges": "bytes",
        "cache-control": "no-cache",
        etag,
        ...(range ? { "content-range": `bytes ${start}-${end}/${stat.size}` } : {}),
        ...headers,
      });
      if (request.method === "HEAD") return response.end();
      const stages = [createReadStream(file, range ? { start, end } : {})];
      if (compress) stages.push(createGzip({ level: 6 }));
      stages.push(counted(record));
      if (line) stages.push(line());
      stages.reduce((from, to) => from.pipe(to)).pipe(response);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((done) => {
    server.listen(port, "127.0.0.1", () => {
      const { port: actual } = server.address();
      // close() also drops open keep-alive connections, so a closed server
      // is gone at once (the offline journeys in engines/).
      done({ url: `http://127.0.0.1:${actual}/`, requests, sent, close: () => new Promise((c) => (server.closeAllConnections(), server.close(c))) });
    });
  });
}

/** A shared line of `bytesPerSecond`: each call gives a stream that passes
 *  its chunks on no faster than the line's turn for them allows. */
function throttle(bytesPerSecond) {
  let free = 0; // when the line is next free (ms since the epoch)
  return () =>
    new Transform({
      transform(chunk, _encoding, done) {
        free = Math.max(free, Date.now()) + (chunk.length / bytesPerSecond) * 1000;
        setTimeout(() => done(null, chunk), Math.max(0, free - Date.now()));
      },
    });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? DIST);
  const { url } = await startServer(root, Number(process.argv[3] ?? 8080));
  console.log(`serving ${root} at ${url}`);
}
