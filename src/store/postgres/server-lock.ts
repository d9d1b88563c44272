/**
 * The server lock on PostgreSQL (see ../server-lock.ts): a session advisory
 * lock, held on a connection of its own for as long as the server runs.
 * PostgreSQL ends it with the session, so a server killed or cut off leaves no
 * stale lock. Its key is per database and schema.
 *
 * A server without Redis counts the limits in its memory and takes the lock
 * exclusively: it starts only alone. Servers with Redis share the limits and
 * take it shared: any number of them start together, and none beside a server
 * without Redis (nor that one beside them).
 *
 * Should the lock's connection break (PostgreSQL restarted), the session and
 * its lock are gone: the server serves on and warns, and another server could
 * then start beside it. That is the operator's to avoid; what the lock guards
 * against is the ordinary mistake, a second instance started without Redis.
 */
import pg from 'pg';
import { ServerAlreadyRunning, type ServerLock } from '../server-lock.ts';
import { connectionConfig, storeError, type PoolOptions } from './pg-client.ts';

const LOCK_KEY = "hashtext('codebook server ' || current_schema())";

export async function lockPostgresServer(
  options: Pick<PoolOptions, 'url' | 'schema' | 'connectTimeoutMs'>,
  sharedLimits: boolean,
  onLost: (error: Error) => void,
): Promise<ServerLock> {
  const client = new pg.Client(connectionConfig(options));
  let released = false;
  client.on('error', (error) => {
    if (!released) onLost(error);
  });
  try {
    await client.connect();
    const fn = sharedLimits ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock';
    const { rows } = await client.query<{ locked: boolean }>(`SELECT ${fn}(${LOCK_KEY}) AS locked`);
    if (rows[0]?.locked !== true) throw new ServerAlreadyRunning(refusal(sharedLimits));
  } catch (error) {
    released = true;
    await client.end().catch(() => undefined);
    throw storeError(error);
  }
  return {
    async release() {
      if (released) return;
      released = true;
      await client.end().catch(() => undefined);
    },
  };
}

/** Whether any server holds the lock shared: servers with Redis are running on this database (and schema). */
export async function serversSharingLimits(pool: pg.Pool): Promise<boolean> {
  // A lock on one bigint key shows in pg_locks as classid (its high 32 bits), objid (its low 32 bits), objsubid 1.
  const { rows } = await pool.query<{ running: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM pg_locks l, (SELECT ${LOCK_KEY}::bigint AS k) lock
       WHERE l.locktype = 'advisory' AND l.mode = 'ShareLock' AND l.granted AND l.objsubid = 1
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND l.classid::bigint = (lock.k >> 32) & 4294967295 AND l.objid::bigint = lock.k & 4294967295
     ) AS running`,
  );
  return rows[0]?.running === true;
}

function refusal(sharedLimits: boolean): string {
  return sharedLimits
    ? 'a server without REDIS_URL is running on this PostgreSQL database, counting the limits in its own memory; ' +
        'a server with Redis beside it would let through what each of them allows. Stop it first, or give it the same REDIS_URL (README, "Scale out").'
    : 'another server is already running on this PostgreSQL database; without REDIS_URL each would enforce the limits alone: twice the rate and twice the allowance. ' +
        'Stop it first, or give every instance the same REDIS_URL (README, "Scale out").';
}
