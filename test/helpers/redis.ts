/**
 * Redis for tests. The shared server (TEST_REDIS_URL, default 127.0.0.1:6379)
 * is used under a key prefix of the test run's own and cleaned up after; it is
 * never stopped. Outage tests start a private redis-server on a free port,
 * which they may shut down and start again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { REDIS_URL, redisReachable, requiredInCi } from './services.ts';

export function runPrefix(name: string): string {
  return `cbtest:${name}:${process.pid}:${randomBytes(3).toString('hex')}:`;
}

/** A plain client for inspecting and cleaning up keys. */
export function redisClient(url = REDIS_URL): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: false });
  client.on('error', () => undefined);
  return client;
}

export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

export async function deleteUnder(client: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(client, prefix);
  if (keys.length > 0) await client.del(...keys);
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A redis-server of the test's own, on a free port, without persistence. */
export class PrivateRedis {
  port = 0;
  private child: ChildProcess | null = null;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (on the same port again after a stop); waits until it answers, at most 5 s. */
  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child.on('error', () => undefined);
    this.child = child;
    for (let waited = 0; !(await redisReachable(this.url, 500)); waited += 50) {
      if (waited > 5_000 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${this.port}`);
      await sleep(50);
    }
  }

  /** Stops it the hard way (its data is gone), and waits for the process to end, at most 5 s. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(5_000)]);
  }
}

/** The `skip` option of tests that start a private redis-server; under CI its absence throws (requiredInCi). */
export async function skipUnlessRedisServer(): Promise<string | false> {
  return requiredInCi(await redisServerInstalled(), 'redis-server is not installed');
}

export async function redisServerInstalled(): Promise<boolean> {
  const child = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  return new Promise((resolve) => {
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}
