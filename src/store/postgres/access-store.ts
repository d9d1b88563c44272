/**
 * AccessStore and UsageStore over PostgreSQL: the shared queries
 * (../sql/access-queries.ts) plus PostgreSQL's usage writes. Counts from many
 * instances meet here: limit counters only ever grow within their window
 * (GREATEST), usage adds up, and rows are locked in one order so concurrent
 * writes cannot deadlock each other.
 */
import type pg from 'pg';
import type { CounterRow, UsageRow, UsageStore } from '../access-store.ts';
import { SqlAccessStore } from '../sql/access-queries.ts';
import { exec, transaction } from './pg-client.ts';
import { PostgresSql } from './sql.ts';

/** SQLSTATEs of a write that lost a race with another writer: retried on the next tick. */
const BUSY_SQLSTATES = new Set(['40P01', '40001', '55P03']);

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class PostgresAccessStore extends SqlAccessStore implements UsageStore {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    super(new PostgresSql(pool));
    this.pool = pool;
  }

  /**
   * Counters are absolute values that only grow within a window: several
   * instances write what they last saw, and the largest wins. Every instance
   * sorts its rows the same way (unnest keeps array order), so two writes
   * lock shared rows in one order and cannot deadlock.
   */
  async writeCounters(counters: CounterRow[], keepWindows: string[]): Promise<boolean> {
    const sorted = [...counters].sort((a, b) => byText(a.orgId, b.orgId) || byText(a.window, b.window));
    if (sorted.length > 0) {
      const written = await this.unlessBusy(() =>
        exec(
          this.pool,
          `INSERT INTO limit_counters (org_id, window_key, count)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
           ON CONFLICT (org_id, window_key) DO UPDATE SET count = GREATEST(limit_counters.count, excluded.count)`,
          [sorted.map((c) => c.orgId), sorted.map((c) => c.window), sorted.map((c) => c.count)],
        ),
      );
      if (!written) return false;
    }
    if (keepWindows.length > 0) {
      // Only minutes before every kept one: another instance may still be writing a kept minute.
      const oldest = [...keepWindows].sort()[0]!;
      await exec(this.pool, `DELETE FROM limit_counters WHERE window_key LIKE 'minute:%' AND window_key < $1`, [oldest]);
    }
    return true;
  }

  /** Usage adds up; last_used_at only moves forward. One transaction, rows locked in one order. */
  async addUsage(usage: UsageRow[], lastUsed: Map<string, string>): Promise<boolean> {
    const sortedUsage = [...usage].sort((a, b) => byText(a.keyId, b.keyId) || byText(a.day, b.day) || byText(a.outcome, b.outcome));
    const touched = [...lastUsed].sort(([a], [b]) => byText(a, b));
    return this.unlessBusy(() =>
      transaction(this.pool, async (client) => {
        if (sortedUsage.length > 0) {
          await exec(
            client,
            `INSERT INTO usage_daily (key_id, day, outcome, count)
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
             ON CONFLICT (key_id, day, outcome) DO UPDATE SET count = usage_daily.count + excluded.count`,
            [sortedUsage.map((u) => u.keyId), sortedUsage.map((u) => u.day), sortedUsage.map((u) => u.outcome), sortedUsage.map((u) => u.count)],
          );
        }
        if (touched.length > 0) {
          await exec(
            client,
            `UPDATE api_keys k SET last_used_at = t.at FROM unnest($1::text[], $2::text[]) AS t(id, at)
             WHERE k.id = t.id AND (k.last_used_at IS NULL OR k.last_used_at < t.at)`,
            [touched.map(([id]) => id), touched.map(([, at]) => at)],
          );
        }
      }),
    );
  }

  /** Runs write; false when it lost a race with another writer. */
  private async unlessBusy(write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (error) {
      if (BUSY_SQLSTATES.has(String((error as { code?: unknown }).code))) return false;
      throw error;
    }
  }
}
