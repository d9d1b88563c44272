/**
 * Whether the real PostgreSQL and Redis the scale-out tests need are there.
 * Unreachable: the tests skip with a line that says so, except under CI
 * (requiredInCi), where a missing server must fail the run instead of hiding it.
 */
import { createConnection } from 'node:net';
import { POSTGRES_SKIP, postgresReachable } from './postgres.ts';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisWhere = new URL(REDIS_URL);
export const REDIS_SKIP = `Redis not reachable on ${redisWhere.hostname}:${redisWhere.port || '6379'}`;

/** PING over a raw socket, bounded by a timeout. */
export function redisReachable(url = REDIS_URL, timeoutMs = 2_000): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/**
 * The `skip` option for tests that need something of the machine: false when
 * it is there; else the reason, or, under CI (CI set; .ci/run sets CI=1), an
 * error, so a missing service fails the run instead of hiding its tests.
 */
export function requiredInCi(present: boolean, reason: string): string | false {
  if (present) return false;
  if (process.env.CI) throw new Error(`${reason}, and CI is set: these tests must run in CI`);
  return reason;
}

/** The `skip` option for a describe(): false when PostgreSQL is there, else the reason. */
export async function skipUnlessPostgres(): Promise<string | false> {
  return requiredInCi(await postgresReachable(), POSTGRES_SKIP);
}

export async function skipUnlessRedis(): Promise<string | false> {
  return requiredInCi(await redisReachable(), REDIS_SKIP);
}

export async function skipUnlessBoth(): Promise<string | false> {
  const [pgSkip, redisSkip] = await Promise.all([skipUnlessPostgres(), skipUnlessRedis()]);
  return pgSkip || redisSkip;
}
