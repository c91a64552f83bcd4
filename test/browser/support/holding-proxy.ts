import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer that went through the proxy. */
export interface Passed {
  path: string;
  status: number;
}

/**
 * An HTTP proxy in front of the portal that can hold the answer to some requests after the server
 * has made it, the way a slow link does: the server has done the work (committed, moved a session
 * epoch), the browser does not know yet (no Set-Cookie in its jar). Everything else streams through
 * at once (server-sent events included). The browser goes to `http://localhost:<port>`.
 */
export class HoldingProxy {
  readonly passed: Passed[] = [];
  private hold: { matches: (path: string) => boolean; until: () => Promise<void> } | null = null;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(upstream: string): Promise<HoldingProxy> {
    const target = new URL(upstream);
    const self: { proxy?: HoldingProxy } = {};
    const server = createServer((req, res) => {
      const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer: IncomingMessage) => {
        const path = (req.url ?? '/').split('?')[0];
        const proxy = self.proxy!;
        const hold = proxy.hold?.matches(path) ? proxy.hold.until() : Promise.resolve();
        void hold.then(() => {
          proxy.passed.push({ path, status: answer.statusCode ?? 0 });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self.proxy = new HoldingProxy(server, (server.address() as AddressInfo).port);
    return self.proxy;
  }

  /** Holds the answers to requests whose path `matches` until `until` resolves. */
  holdAnswers(matches: (path: string) => boolean, until: () => Promise<void>): void {
    this.hold = { matches, until };
  }

  url(path = '/'): string {
    return `http://localhost:${this.port}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
