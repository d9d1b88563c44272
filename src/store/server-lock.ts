/**
 * One server per database where the limits are counted in the server's
 * memory: on SQLite always, on PostgreSQL without Redis. A second such server
 * would enforce every limit on its own (twice the rate, twice the allowance),
 * so it refuses to start. Each backend holds its lock its own way
 * (sqlite/server-lock.ts, postgres/server-lock.ts); CLI commands take none.
 */
export class ServerAlreadyRunning extends Error {
  override name = 'ServerAlreadyRunning';
}

export interface ServerLock {
  release(): void | Promise<void>;
}
