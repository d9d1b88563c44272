/**
 * Several Codebook instances in one test process, each with its own database
 * pool, Redis connection and listening HTTP server, against one fresh
 * PostgreSQL database and a Redis key prefix of their own. close() stops every
 * instance, drops the database and deletes the keys, whatever failed before.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { checkedFetch } from './openapi.ts';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKey, createOrg, setPlan } from '../../src/services/access/admin.ts';
import type { Organisation } from '../../src/domain/access.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { deleteUnder, redisClient, runPrefix } from './redis.ts';
import { REDIS_URL } from './services.ts';

export interface Instance {
  deps: Deps;
  app: FastifyInstance;
  /** http://127.0.0.1:port */
  url: string;
  warnings: string[];
  get(path: string, key?: string): Promise<Response>;
  stop(): Promise<void>;
}

export interface InstanceOptions {
  /** Default: the cluster's database. */
  databaseUrl?: string;
  /** Default: the shared Redis; null: no Redis. */
  redisUrl?: string | null;
  /** More settings for this instance (e.g. DATABASE_STATEMENT_TIMEOUT_MS). */
  env?: Record<string, string>;
  /** The instance's clock (default: the real one); instances may share one to cross an exact moment together. */
  now?: () => number;
}

export interface Cluster {
  db: TestDatabase;
  prefix: string;
  /** Environment that points a process (the CLI) at this cluster's database and Redis. */
  env: Record<string, string>;
  instance(options?: InstanceOptions): Promise<Instance>;
  /** An organisation on a plan of its own, and a live key for it. */
  /** A customer on a plan of its own: the code and change reads unless endpoints says which. */
  customer(
    slug: string,
    limits: { ratePerMinute: number; monthlyQuota: number | null },
    endpoints?: string[],
  ): Promise<{ org: Organisation; key: string; keyId: string }>;
  close(): Promise<void>;
}

export async function createCluster(name: string): Promise<Cluster> {
  const db = await createTestDatabase(`codebook_${name}`);
  const prefix = runPrefix(name);
  const instances: Instance[] = [];
  const cluster: Cluster = {
    db,
    prefix,
    env: { DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: prefix, LOG_LEVEL: 'silent', DATABASE_POOL_SIZE: '4' },
    async instance(options = {}) {
      const redisUrl = options.redisUrl === undefined ? REDIS_URL : options.redisUrl;
      const config = loadConfig({
        ...cluster.env,
        DATABASE_URL: options.databaseUrl ?? db.url,
        REDIS_URL: redisUrl ?? '',
        PORT: '0',
        ...options.env,
      });
      const warnings: string[] = [];
      const deps = await createDeps(config, { onWarning: (m) => warnings.push(m), onFlushError: () => undefined, now: options.now });
      const app = await buildApp(deps);
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      let stopped = false;
      const instance: Instance = {
        deps,
        app,
        url,
        warnings,
        // Checked against the OpenAPI document, like inject() in the test context.
        get: (path, key) => checkedFetch(app, `${url}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(10_000) }),
        async stop() {
          if (stopped) return;
          stopped = true;
          try {
            await app.close();
          } finally {
            await deps.close();
          }
        },
      };
      instances.push(instance);
      return instance;
    },
    async customer(slug, limits, endpoints = ['codes.list', 'codes.get', 'changes.list']) {
      const admin = instances[0]!.deps.admin;
      await setPlan(admin, { name: `plan-${slug}`, endpoints, ...limits, testKeysAllowed: true });
      const org = await createOrg(admin, slug, `plan-${slug}`);
      const { key, info } = await createKey(admin, org, 'live', slug);
      return { org, key, keyId: info.id };
    },
    async close() {
      const errors: unknown[] = [];
      for (const instance of instances) await instance.stop().catch((e: unknown) => errors.push(e));
      const client = redisClient();
      await deleteUnder(client, prefix).catch((e: unknown) => errors.push(e));
      client.disconnect();
      await db.drop().catch((e: unknown) => errors.push(e));
      if (errors.length > 0) throw new AggregateError(errors, 'cluster cleanup failed');
    },
  };
  return cluster;
}

/** Polls until fn's answer satisfies ok (every pollMs), at most timeoutMs; returns the last answer either way. */
export async function eventually<T>(fn: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000, pollMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await fn();
  while (!ok(value) && Date.now() < deadline) {
    await sleep(pollMs);
    value = await fn();
  }
  return value;
}

/** The value of the first line of the instance's /metrics that matches, or 0 when none does. */
export async function metric(instance: Instance, line: RegExp): Promise<number> {
  const text = await (await instance.get('/metrics')).text();
  const found = text.split('\n').find((l) => line.test(l));
  return found === undefined ? 0 : Number(found.split(' ').at(-1));
}
