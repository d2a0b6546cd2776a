import type { Express } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  server: Server;
  port: number;
  /**
   * Stop accepting connections, let in-flight requests finish (idle keep-alive
   * connections are closed at once), and force-close whatever is left after
   * `timeoutMs`.
   */
  close(timeoutMs: number): Promise<void>;
}

export async function listen(app: Express, port: number, host?: string): Promise<RunningServer> {
  const server = createServer(app);
  // Headers must arrive promptly; a slow client cannot hold a socket forever.
  server.headersTimeout = 30_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    server,
    port: actualPort,
    close: (timeoutMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
        force.unref();
        // A keep-alive connection turns idle when its in-flight request ends; close it then.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
