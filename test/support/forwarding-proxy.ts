import http from 'node:http';

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

/** The header a test sets to say which client the proxy is forwarding for (the proxy drops it). */
export const FORWARD_FOR = 'x-test-forward-for';

/**
 * A real layer-7 proxy hop on 127.0.0.1, as a load balancer is: every request is sent on to `target` over the
 * proxy's own connection, with `X-Forwarded-For` naming the client (the `x-test-forward-for` header the test sets,
 * appended to any `X-Forwarded-For` the client sent, as proxies do).
 */
export async function startForwardingProxy(target: string): Promise<ForwardingProxy> {
  const agent = new http.Agent({ keepAlive: true });
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers };
    const client = String(headers[FORWARD_FOR] ?? req.socket.remoteAddress);
    delete headers[FORWARD_FOR];
    const prior = headers['x-forwarded-for'];
    headers['x-forwarded-for'] = prior ? `${String(prior)}, ${client}` : client;
    headers.host = to.host;
    const upstream = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
