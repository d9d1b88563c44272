/**
 * The connection pool, named (server-side prepared) statements, and the line
 * between "the database is unreachable" (StoreUnavailableError, a 503) and
 * every other error (a bug or a constraint, a 500 or the caller's business).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { StoreUnavailableError } from '../store.ts';

export interface PoolOptions {
  url: string;
  /** Schema to work in (search_path); tests give each store a fresh one. */
  schema?: string;
  max?: number;
  /** How long to wait for a connection, from the pool or a new one, in ms (default 2 000). */
  connectTimeoutMs?: number;
  /**
   * How long a statement on a pooled connection may take, in ms (default
   * 5 000). Enforced by the client as well as the server: a stalled server
   * never fires its own statement_timeout. Imports and migrations run on
   * connections of their own, without it.
   */
  statementTimeoutMs?: number;
  /** Called for errors of idle connections, which have no caller to throw to. */
  onIdleError?: (error: Error) => void;
}

export const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

export function connectionConfig(o: PoolOptions): pg.ClientConfig {
  if (o.schema !== undefined && !SCHEMA_PATTERN.test(o.schema)) throw new Error(`invalid schema name "${o.schema}"`);
  return {
    connectionString: o.url,
    connectionTimeoutMillis: o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    application_name: 'codebook',
    ...(o.schema !== undefined ? { options: `-c search_path=${o.schema}` } : {}),
  };
}

export function createPool(o: PoolOptions): pg.Pool {
  const statementTimeoutMs = o.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    ...connectionConfig(o),
    max: o.max ?? 10,
    idleTimeoutMillis: 30_000,
    // Fail fast while the database is unreachable or stalled: the request gets a 503 instead of
    // hanging. A statement that times out on the client leaves its connection mid-exchange: the
    // pool's own queries release it with the error (which drops it), withClient marks it broken.
    query_timeout: statementTimeoutMs,
    statement_timeout: statementTimeoutMs,
  });
  // An idle connection that breaks (the server restarts) must not crash the process.
  pool.on('error', (error) => o.onIdleError?.(error));
  return pool;
}

/** SQLSTATE classes and node errors that mean "cannot reach or use the database right now". */
// 57014: a statement cancelled by statement_timeout (the database did not answer in time).
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0|57014|58|3D000|28000|28P01)/;
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|timeout expired|Client has encountered a connection error|Connection refused|connection is closed|Client was closed/i;

export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NODE_CODES.has(code)) return true;
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message);
}

/** A database or role that does not exist, or a password refused: reached, but not usable as configured. */
const REFUSED_SQLSTATE = /^(3D000|28000|28P01)$/;

/**
 * Connection failures become StoreUnavailableError; everything else is passed
 * through. A refusal keeps PostgreSQL's own words (they name the database or
 * role, never a password), so an operator can see the typo in DATABASE_URL.
 */
export function storeError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError || !isUnavailable(error)) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && REFUSED_SQLSTATE.test(code) && typeof message === 'string') {
    return new StoreUnavailableError(`PostgreSQL refused the connection: ${message}`, { cause: error });
  }
  return new StoreUnavailableError('PostgreSQL is unreachable', { cause: error });
}

export type Queryable = pg.Pool | pg.PoolClient | pg.Client;
export type Value = string | number | boolean | null | string[] | number[] | (boolean | null)[];

const names = new Map<string, string>();

/** A stable name per SQL text: each connection parses and plans it once. */
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `cb_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

export async function rows<R extends pg.QueryResultRow>(db: Queryable, text: string, values: Value[] = []): Promise<R[]> {
  try {
    return (await db.query<R>({ name: statementName(text), text, values })).rows;
  } catch (error) {
    throw storeError(error);
  }
}

/** Rows as arrays: no object per row on the hot path. */
export async function arrays<R extends unknown[]>(db: Queryable, text: string, values: Value[] = []): Promise<R[]> {
  try {
    return (await db.query<R>({ name: statementName(text), text, values, rowMode: 'array' })).rows;
  } catch (error) {
    throw storeError(error);
  }
}

export async function exec(db: Queryable, text: string, values: Value[] = []): Promise<number> {
  try {
    return (await db.query({ name: statementName(text), text, values })).rowCount ?? 0;
  } catch (error) {
    throw storeError(error);
  }
}

/**
 * Runs fn on a pooled connection. pg-pool takes its error listener off a
 * checked-out connection, so one that dies meanwhile would emit an unhandled
 * 'error' (a crash): this listens, and drops the dead connection on release,
 * as it drops one whose statement timed out (mid-exchange, it is unusable).
 */
export async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient, markBroken: (error: Error) => void) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw storeError(error);
  }
  let broken: Error | undefined;
  const markBroken = (error: Error) => (broken ??= error);
  client.on('error', markBroken);
  try {
    return await fn(client, markBroken);
  } catch (error) {
    if (isUnavailable(error)) markBroken(error as Error);
    throw error;
  } finally {
    client.off('error', markBroken);
    client.release(broken);
  }
}

/**
 * Runs fn on a connection opened for it, outside the pool and without the
 * statement timeout: imports and migrations may need minutes. Closed after.
 */
export async function withOwnConnection<T>(o: PoolOptions, fn: (client: pg.Client, markBroken: (error: Error) => void) => Promise<T>): Promise<T> {
  const client = new pg.Client(connectionConfig(o));
  let broken: Error | undefined;
  const markBroken = (error: Error) => (broken ??= error);
  client.on('error', markBroken);
  try {
    await client.connect();
  } catch (error) {
    void client.end().catch(() => undefined);
    throw storeError(error);
  }
  try {
    return await fn(client, markBroken);
  } catch (error) {
    if (isUnavailable(error)) markBroken(error as Error);
    throw error;
  } finally {
    // end() cuts the socket at once when a statement is still pending; otherwise it says goodbye,
    // which a stalled server would never acknowledge: wait no longer than a connect.
    await endWithin(client, broken ? 0 : (o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS));
  }
}

async function endWithin(client: pg.Client, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([client.end().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Runs fn in a transaction on the client; rolls back on any throw. */
export async function inTransaction<T, C extends pg.PoolClient | pg.Client>(
  client: C,
  markBroken: (error: Error) => void,
  fn: (client: C) => Promise<T>,
): Promise<T> {
  try {
    await exec(client, 'BEGIN');
    const result = await fn(client);
    await exec(client, 'COMMIT');
    return result;
  } catch (error) {
    if (isUnavailable(error)) {
      // The connection is gone or stalled mid-exchange: drop it; the server rolls back when the session ends.
      markBroken(error as Error);
    } else {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        markBroken(rollbackError as Error);
      }
    }
    throw storeError(error);
  }
}

/** Runs fn in a transaction on a pooled connection (bound by the statement timeout). */
export async function transaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, (client, markBroken) => inTransaction(client, markBroken, fn));
}

/**
 * A 64-bit advisory lock key for a purpose, scoped to the schema so that
 * stores in different schemas of one database do not exclude each other.
 */
export const LOCK_KEY_SQL = `hashtextextended(current_schema() || $1, 0)`;
