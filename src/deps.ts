/**
 * The composition root: builds the store (and, later, the limiter) the
 * configuration names. HTTP, CLI and tests all get their services from here.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError, type Config } from './config.ts';
import { createCursorCodec, type CursorCodec } from './http/cursor.ts';
import { SqliteStore } from './store/sqlite/sqlite-store.ts';
import type { Store } from './store/store.ts';

export interface Deps {
  readonly config: Config;
  readonly store: Store;
  readonly cursors: CursorCodec;
  close(): Promise<void>;
}

export function openStore(config: Config): Store {
  if (config.database.kind === 'sqlite') return new SqliteStore({ path: config.database.path });
  throw new ConfigError('DATABASE_URL: postgres:// is not supported by this version; use sqlite:PATH');
}

/** The cursor secret: from config, or generated once and kept in the database for every instance. */
export async function cursorSecret(config: Config, store: Store): Promise<string> {
  return config.cursorSecret ?? store.ensureSetting('cursor_secret', randomBytes(32).toString('base64url'));
}

export async function createDeps(config: Config): Promise<Deps> {
  const store = openStore(config);
  try {
    const cursors = createCursorCodec(await cursorSecret(config, store));
    return { config, store, cursors, close: () => store.close() };
  } catch (error) {
    await store.close();
    throw error;
  }
}
