// The browsers' proxy: any request to another origin is refused and
// recorded (the privacy check). The app's own origin is loopback, which
// browsers reach directly; should one send it here, it is passed on.
import { createServer, request as forward } from "node:http";

export function startGate(appUrl) {
  const app = new URL(appUrl);
  const state = { foreign: [], passed: 0 };
  const server = createServer((incoming, outgoing) => {
    const target = new URL(incoming.url, appUrl);
    if (target.host !== app.host) {
      state.foreign.push(`${incoming.method} ${incoming.url}`);
      return outgoing.writeHead(403).end();
    }
    state.passed += 1;
    const upstream = forward(
      { host: app.hostname, port: app.port, method: incoming.method, path: target.pathname + target.search, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", () => incoming.socket.destroy());
    incoming.pipe(upstream);
  });
  // https: a tunnel to anywhere is foreign (the app is served over http here).
  server.on("connect", (incoming, socket) => {
    state.foreign.push(`CONNECT ${incoming.url}`);
    // A browser shutting down may reset the refused tunnel: without a
    // listener that reset is an uncaught ECONNRESET that fails the file
    // after its tests passed (seen in a rehearsal, WebKit's teardown).
    socket.on("error", () => {});
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({
        address: `127.0.0.1:${server.address().port}`,
        state,
        close: () => new Promise((c) => (server.closeAllConnections(), server.close(c))),
      }),
    ),
  );
}
