// A tiny static file server for dist/ on 127.0.0.1 (tests and benchmark).
// `node serve.mjs [dir] [port]` serves from the command line too.
import { createServer } from "node:http";
import { createReadStream, statSync } from "node:fs";
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
 * Serves `root`; resolves to { url, close }. Port 0 picks a free one.
 * `headers` go on every file served (bench-stream.mjs: cross-origin isolation).
 */
export function startServer(root = DIST, port = 0, headers = {}) {
  // Every request the server saw, in order (the privacy test reads it).
  const requests = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method, url: request.url });
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, "index.html");
      const stat = statSync(file);
      response.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "content-length": stat.size,
        "cache-control": "no-cache",
        ...headers,
      });
      if (request.method === "HEAD") response.end();
      else createReadStream(file).pipe(response);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((done) => {
    server.listen(port, "127.0.0.1", () => {
      const { port: actual } = server.address();
      // close() also drops open keep-alive connections, so a closed server
      // is gone at once (the offline journeys in engines/).
      done({ url: `http://127.0.0.1:${actual}/`, requests, close: () => new Promise((c) => (server.closeAllConnections(), server.close(c))) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? DIST);
  const { url } = await startServer(root, Number(process.argv[3] ?? 8080));
  console.log(`serving ${root} at ${url}`);
}
