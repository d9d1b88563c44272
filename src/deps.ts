/**
 * The composition root: builds the store, the limiter and the services the
 * configuration names. HTTP, CLI and tests all get their services from here.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError, type Config } from './config.ts';
import { DEFAULT_PLANS } from './domain/access.ts';
import { createCursorCodec, type CursorCodec } from './http/cursor.ts';
import type { Limiter } from './limiter/limiter.ts';
import { MemoryLimiter } from './limiter/memory-limiter.ts';
import type { AdminDeps } from './services/access/admin.ts';
import { KeyCache } from './services/access/key-cache.ts';
import { UsageRecorder } from './services/access/usage-recorder.ts';
import { SqliteStore } from './store/sqlite/sqlite-store.ts';
import type { Store } from './store/store.ts';

export interface Deps {
  readonly config: Config;
  readonly store: Store;
  readonly cursors: CursorCodec;
  /** The clock, in ms since the epoch; injectable so tests can cross minutes and months. */
  readonly now: () => number;
  readonly keys: KeyCache;
  readonly limiter: Limiter;
  readonly usage: UsageRecorder;
  readonly admin: AdminDeps;
  /** Writes pending counts and closes the database. */
  close(): Promise<void>;
}

export interface DepsOptions {
  now?: () => number;
  /** Called when a background flush of counts fails (logged by the server). */
  onFlushError?: (error: unknown) => void;
}

export function openStore(config: Config): Store {
  if (config.database.kind === 'sqlite') return new SqliteStore({ path: config.database.path });
  throw new ConfigError('DATABASE_URL: postgres:// is not supported by this version; use sqlite:PATH');
}

/** The cursor secret: from config, or generated once and kept in the database for every instance. */
export async function cursorSecret(config: Config, store: Store): Promise<string> {
  return config.cursorSecret ?? store.ensureSetting('cursor_secret', randomBytes(32).toString('base64url'));
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  const store = openStore(config);
  try {
    await store.access.seedPlans(DEFAULT_PLANS);
    const cursors = createCursorCodec(await cursorSecret(config, store));
    const now = options.now ?? Date.now;
    const keys = new KeyCache(store);
    const limiter = new MemoryLimiter(store.usage, { onFlushError: options.onFlushError });
    const usage = new UsageRecorder(store.usage, { onFlushError: options.onFlushError });
    return {
      config,
      store,
      cursors,
      now,
      keys,
      limiter,
      usage,
      admin: { store, now, onChange: () => keys.invalidate() },
      async close() {
        try {
          await limiter.close();
          await usage.close();
        } finally {
          await store.close();
        }
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
