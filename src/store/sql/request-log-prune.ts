/**
 * The request log's retention, one organisation at a time: the rows older than a date and those
 * beyond the newest `keep` go. Written once over a minimal interface, for the shared store (both
 * backends, on the event loop) and for SQLite's writer thread (activity-writer-thread.ts), which
 * prunes on its own connection while a thread runs.
 */
import type { SqlValue } from './sql.ts';

/** Rows of the request log deleted by one statement of a prune. */
export const PRUNE_SLICE = 250;

export interface PruneSql {
  /** The id of a query's first row, or null. */
  firstId(sql: string, params: SqlValue[]): Promise<number | null>;
  /** One DELETE; how many rows it removed. */
  run(sql: string, params: SqlValue[]): Promise<number>;
}

/**
 * Deletes the organisation's rows older than `before` or beyond its newest `keep`, in slices of
 * PRUNE_SLICE, calling `between` after each full slice (the event loop yields there).
 */
export async function pruneRequestLog(sql: PruneSql, orgId: string, before: string, keep: number, between: () => Promise<void>): Promise<void> {
  // A row goes when it is older than `before` or beyond the newest `keep` (none when there are fewer).
  // Rows are appended in time order, so both are the rows below one id, found once: the newest
  // `keep`-th row, or the first row not older than `before`, whichever is higher. Each slice is
  // then a range of the (org_id, id) index; asked again in every slice, the cut cost a walk of
  // `keep` index entries and a row read per candidate (8–12 ms a slice at 10 000 rows).
  const newest = await sql.firstId('SELECT id FROM request_log WHERE org_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?', [orgId, keep - 1]);
  // No row as recent as `before`: every row there is now goes (rows appended meanwhile stay).
  const recent =
    (await sql.firstId('SELECT id FROM request_log WHERE org_id = ? AND at >= ? ORDER BY id LIMIT 1', [orgId, before])) ??
    ((await sql.firstId('SELECT id FROM request_log WHERE org_id = ? ORDER BY id DESC LIMIT 1', [orgId])) ?? 0) + 1;
  const cut = Math.max(newest ?? 0, recent);
  // In slices: SQLite runs a statement synchronously, and one DELETE of a minute's worth of
  // requests (hundreds of thousands of rows) held the event loop, or the file's write lock, for seconds.
  for (;;) {
    const deleted = await sql.run('DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE org_id = ? AND id < ? ORDER BY id LIMIT ?)', [
      orgId,
      cut,
      PRUNE_SLICE,
    ]);
    if (deleted < PRUNE_SLICE) return;
    await between();
  }
}
