/**
 * settings.access_version: the number that vouches for what running instances
 * cache (key lookups, and records, pages and systems when scaled out). Every
 * change to what they cache moves it, in the transaction of the change; the
 * instances learn of it through Redis (see redis-limiter.ts).
 */

/** The upsert that moves the version by one, whatever row its INSERT offers. */
const MOVE = `ON CONFLICT (key) DO UPDATE SET value = (settings.value::bigint + 1)::text`;

/** Moves the version by one. */
export const BUMP_ACCESS_VERSION = `INSERT INTO settings (key, value) VALUES ('access_version', '1') ${MOVE}`;

/** Moves the version by one when the statement `changed` (a data-modifying CTE's body, RETURNING a row) changed a row. */
export function bumpAccessVersionWhen(changed: string): string {
  return `WITH changed AS (${changed}) INSERT INTO settings (key, value) SELECT 'access_version', '1' FROM changed LIMIT 1 ${MOVE}`;
}
