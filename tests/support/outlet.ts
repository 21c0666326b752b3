import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';

/** An outlet's web server for the publication checks: real HTTP on loopback, routes by path. */
export interface Outlet {
  /** the URL of a path on this outlet, e.g. outlet.url('/article') */
  url(path: string): string;
  port: number;
  /** every request it received, in order */
  requests: IncomingMessage[];
  /** how many TCP connections it accepted: 0 proves nothing ever reached it */
  readonly connections: number;
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** Listens on `host` (a loopback address) at `port` (any free one by default). */
export async function startOutlet(routes: Record<string, Route>, host = '127.0.0.1', port = 0): Promise<Outlet> {
  const requests: IncomingMessage[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    requests.push(req);
    // a client that gives up mid-answer (too large, too slow) is expected here, not an error
    res.on('error', () => {});
    const route = routes[req.url ?? ''];
    if (route) return route(req, res);
    res.writeHead(404, { 'Content-Type': 'text/html' }).end('<title>Not here</title>');
  });
  server.on('connection', (socket) => {
    connections++;
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const urlHost = net.isIPv6(host) ? `[${host}]` : host;
  return {
    url: (path) => `http://${urlHost}:${bound}${path}`,
    port: bound,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An HTML answer. */
export function html(body: string | Buffer, headers: http.OutgoingHttpHeaders = {}): Route {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers }).end(body);
  };
}

/** A redirect to `location` (absolute or relative). */
export function redirect(location: string, status = 302): Route {
  return (_req, res) => {
    res.writeHead(status, { Location: location }).end();
  };
}

/**
 * `total` bytes of `fill`, written as fast as the client reads them and stopped when it hangs up,
 * so a test of the size limit never builds the whole answer in memory.
 */
export function endless(total: number, headers: http.OutgoingHttpHeaders, fill = 'a'): Route {
  return (_req, res) => {
    const chunk = Buffer.alloc(64 * 1024, fill);
    let sent = 0;
    res.writeHead(200, headers);
    const pump = () => {
      while (sent < total && !res.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}
