/**
 * The composition root: builds the store, the limiter and the services the
 * configuration names. HTTP, CLI and tests all get their services from here.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from './config.ts';
import { DEFAULT_PLANS } from './domain/access.ts';
import { createCursorCodec, type CursorCodec } from './http/cursor.ts';
import { Metrics } from './http/metrics.ts';
import { REDIS_TICK_MS, type Limiter } from './limiter/limiter.ts';
import { MemoryLimiter } from './limiter/memory-limiter.ts';
import { ObservedLimiter } from './limiter/observed-limiter.ts';
import type { RedisLimiter } from './limiter/redis-limiter.ts';
import type { AdminDeps } from './services/access/admin.ts';
import { KeyCache } from './services/access/key-cache.ts';
import { CachedCatalog } from './services/cached-catalog.ts';
import { UsageRecorder } from './services/access/usage-recorder.ts';
import { ExposureWatch } from './services/access/exposure.ts';
import { RequestLogRecorder } from './services/access/request-log.ts';
import type { WriteWait } from './store/sqlite/busy.ts';
import { SqliteStore } from './store/sqlite/sqlite-store.ts';
import type { Store } from './store/store.ts';

export interface Deps {
  readonly config: Config;
  readonly store: Store;
  readonly cursors: CursorCodec;
  /** The clock, in ms since the epoch; injectable so tests can cross minutes and months. */
  readonly now: () => number;
  readonly keys: KeyCache;
  /** The store's catalog reads behind the exact in-process cache of records and pages. */
  readonly catalog: CachedCatalog;
  readonly limiter: Limiter;
  readonly usage: UsageRecorder;
  readonly admin: AdminDeps;
  /** The request log of every organisation, written in batches. */
  readonly requestLog: RequestLogRecorder;
  /** Marks keys seen in a URL, a body or a Referer. */
  readonly exposures: ExposureWatch;
  /** Prometheus metrics of this instance (/metrics). */
  readonly metrics: Metrics;
  /** The Redis limiter when REDIS_URL is set (also deps.limiter, behind metrics); null otherwise. */
  readonly redis: RedisLimiter | null;
  /** Writes pending counts and closes the database. */
  close(): Promise<void>;
}

export interface DepsOptions {
  now?: () => number;
  /** Called when a background flush of counts fails (logged by the server). */
  onFlushError?: (error: unknown) => void;
  /** Operator warnings: Redis lost or back, a change other instances could not be told of. Default: stderr. */
  onWarning?: (message: string, error?: unknown) => void;
  /** Also export process metrics (CPU, memory, event loop) on /metrics: the server does, tests do not. */
  processMetrics?: boolean;
  /** A store already opened on config.database (tests inject faults through a subclass); closed with the deps. */
  store?: Store;
  /**
   * The server: an SQLite database or activity file that can be opened only read-only stops the
   * start with DatabaseFileError (a server that could record no usage must not serve). The CLI's
   * commands that only read work on such a file.
   */
  writable?: boolean;
  /** Operator notices that are no warning: the request log's file can be written again after it could not. Default: none. */
  onNotice?: (message: string) => void;
  /**
   * SQLite: how writes wait while an import holds the database's write lock (default: a request's
   * WRITE_WAIT_MS, then a 503). The operator CLI waits as long as imports wait for each other.
   */
  writeWait?: WriteWait;
}

/** writable, onNotice, writeWait: SQLite's (see DepsOptions). */
export async function openStore(
  config: Config,
  onIdleError?: (error: Error) => void,
  sqlite: Pick<DepsOptions, 'writable' | 'onNotice' | 'writeWait'> = {},
): Promise<Store> {
  if (config.database.kind === 'sqlite')
    return new SqliteStore({
      path: config.database.path,
      mmapBytes: config.sqliteMmapBytes,
      pagesOnThread: config.sqlitePagesOnThread,
      writable: sqlite.writable,
      onNotice: sqlite.onNotice,
      writeWait: sqlite.writeWait,
    });
  // Loaded only when configured: the embedded default never pays for pg.
  const { PostgresStore } = await import('./store/postgres/postgres-store.ts');
  const { url, poolSize, connectTimeoutMs, statementTimeoutMs } = config.database;
  return PostgresStore.open({ url, max: poolSize, connectTimeoutMs, statementTimeoutMs, onIdleError });
}

/** A writer without Redis waits this long for instances with Redis to read its change: one tick and half of one more. */
const REDIS_INSTANCES_WAIT_MS = REDIS_TICK_MS * 1.5;

function stderrWarning(message: string, error?: unknown): void {
  process.stderr.write(`codebook: warning: ${message}${error instanceof Error ? ` (${error.message})` : ''}\n`);
}

/** The cursor secret: from config, or generated once and kept in the database for every instance. */
export async function cursorSecret(config: Config, store: Store): Promise<string> {
  return config.cursorSecret ?? store.ensureSetting('cursor_secret', randomBytes(32).toString('base64url'));
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  const metrics = new Metrics({ processMetrics: options.processMetrics });
  const warn = options.onWarning ?? stderrWarning;
  const onFlushError = (error: unknown) => {
    metrics.storeError('database');
    options.onFlushError?.(error);
  };
  const store =
    options.store ??
    (await openStore(
      config,
      (error) => {
        metrics.storeError('database');
        warn('a database connection failed while idle; the pool reconnects', error);
      },
      { writable: options.writable, onNotice: options.onNotice, writeWait: options.writeWait },
    ));
  let redis: RedisLimiter | null = null;
  try {
    await store.access.seedPlans(DEFAULT_PLANS);
    const cursors = createCursorCodec(await cursorSecret(config, store));
    const now = options.now ?? Date.now;
    if (config.redis) {
      const { RedisLimiter } = await import('./limiter/redis-limiter.ts');
      redis = new RedisLimiter({
        url: config.redis.url,
        prefix: config.redis.prefix,
        usage: store.usage,
        settings: store,
        onFlushError,
        onWarning: warn,
        onRedisError: () => metrics.storeError('redis'),
        onHealth: (healthy) => metrics.redisFallback(!healthy),
      });
      await redis.start();
    }
    const shared = redis;
    // Scaled out (PostgreSQL and Redis), cached key lookups are vouched for by the Redis script.
    const keys = new KeyCache(store, shared && store.kind === 'postgres' ? { validator: shared } : {});
    const limiter = new ObservedLimiter(shared ?? new MemoryLimiter(store.usage, { onFlushError }), (d) => metrics.decision(d));
    const usage = new UsageRecorder(store.usage, { onFlushError });
    // A writer returns only once every running instance will see its change on its next request:
    // scaled out, Redis is told (the access epoch); on SQLite, a freshness window has passed.
    // Instances that share their limits through Redis and cannot be told of a change through it read the change from
    // PostgreSQL on their next tick: a writer that could not tell them waits that out (with room for the tick itself).
    const waitOutTick = async (why: string) => {
      warn(`${why}: waiting ${REDIS_INSTANCES_WAIT_MS} ms for the running instances to read the change from PostgreSQL`);
      await sleep(REDIS_INSTANCES_WAIT_MS);
    };
    const tellRedis = shared
      ? async () => {
          if (!(await shared.accessChanged())) await waitOutTick('Redis could not be told of this change');
        }
      : null;
    const waitForRedisInstances =
      shared === null && store.serversSharingLimits
        ? async () => {
            if (await store.serversSharingLimits!())
              await waitOutTick('servers sharing their limits through Redis run on this database and this process was not given REDIS_URL (set it as they do)');
          }
        : null;
    const tellInstances = tellRedis ?? waitForRedisInstances;
    const afterChange = async () => {
      await store.settleWrites();
      await tellInstances?.();
    };
    if (tellInstances)
      store.onImportCommitted(() => tellInstances().catch((error: unknown) => warn('the running instances could not be told of an import', error)));
    // Records and pages are cached under the version that vouches for key lookups: the store's on SQLite,
    // the access epoch seen through Redis when scaled out (an import moves it), none on PostgreSQL alone.
    const readVersion = store.kind === 'postgres' ? () => (shared ? shared.accessVersion() : Number.NaN) : () => store.externalWriteVersion();
    const catalog = new CachedCatalog(store, { maxBytes: config.readCacheBytes, version: readVersion });
    metrics.watchReadCache(() => catalog.stats());
    const admin: AdminDeps = { store, now, onChange: () => keys.invalidate(), afterChange };
    const requestLog = new RequestLogRecorder(store.keyLife, { now, onFlushError });
    return {
      config,
      store,
      cursors,
      now,
      keys,
      catalog,
      limiter,
      usage,
      admin,
      requestLog,
      exposures: new ExposureWatch(admin),
      metrics,
      redis,
      async close() {
        // Pending counts are written if the database can be reached; if not, that is reported, and the
        // process still stops cleanly. The request log's timer stops first: the counts come first, and
        // its writes would hold the lock they need.
        requestLog.stop();
        await limiter.close().catch(onFlushError);
        await usage.close().catch(onFlushError);
        await requestLog.close().catch(onFlushError);
        await store.close();
      },
    };
  } catch (error) {
    await redis?.close();
    await store.close();
    throw error;
  }
}
