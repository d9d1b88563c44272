/**
 * A TCP proxy to cut a service off, or freeze it, and bring it back without
 * touching the shared server.
 *
 * cut() closes the listener and destroys every connection (clients see their
 * connections die and new ones refused); restore() listens again on the same
 * port. stall() is a frozen server instead: connections stay open and new ones
 * are accepted, but nothing is passed on in either direction (what is sent
 * waits, as it would in the kernel's buffers); resume() passes everything on
 * again, what waited first.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export class TcpProxy {
  readonly targetHost: string;
  readonly targetPort: number;
  port = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private stalled = false;

  constructor(targetHost: string, targetPort: number) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
  }

  /** Passes what from reads on to to, with backpressure; nothing while stalled. */
  private forward(from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => {
      if (!this.stalled) from.resume();
    });
    if (this.stalled) from.pause();
  }

  /** Listens (on a free port the first time, on the same port after a cut). */
  async start(): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      this.forward(client, upstream);
      this.forward(upstream, client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  get connections(): number {
    return this.sockets.size;
  }

  /** The service becomes unreachable: open connections die, new ones are refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (!this.server) await this.start();
  }

  /** The service freezes: every connection stays open and nothing is answered. */
  stall(): void {
    this.stalled = true;
    for (const s of this.sockets) s.pause();
  }

  /** The service answers again, starting with what was sent while it was frozen. */
  resume(): void {
    this.stalled = false;
    for (const s of this.sockets) s.resume();
  }

  async close(): Promise<void> {
    this.resume();
    await this.cut();
  }
}
