/** Helpers for the server modules: listen on a free loopback port, close without waiting. */

/**
 * Listens with a node:http server on 127.0.0.1 and an OS-chosen port; the server is returned too,
 * for the in-process pairs (inprocess/worker.mjs).
 */
export function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve({
        port: server.address().port,
        server,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}
