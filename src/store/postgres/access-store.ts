/**
 * AccessStore and UsageStore over PostgreSQL. Counts from many instances meet
 * here: limit counters only ever grow within their window (GREATEST), usage
 * adds up, and rows are locked in one order so concurrent flushes cannot
 * deadlock each other.
 */
import type pg from 'pg';
import type { ApiKeyInfo, Organisation, Plan } from '../../domain/access.ts';
import type { AccessStore, CounterRow, KeyLookup, KeyRevocation, NewKey, UsageRow, UsageStore } from '../access-store.ts';
import { exec, rows, transaction } from './pg-client.ts';
import { keyFromRow, keyLookupFromRow, orgFromRow, planFromRow } from '../row-mappers.ts';

const KEY_COLUMNS = 'k.id, k.org_id, k.name, k.mode, k.display_prefix, k.created_at, k.revoked_at, k.last_used_at, k.expires_at';
const PLAN_COLUMNS = 'p.name, p.endpoints, p.rate_per_minute, p.monthly_quota, p.test_keys_allowed';

const PLAN_INSERT = 'INSERT INTO plans (name, endpoints, rate_per_minute, monthly_quota, test_keys_allowed) VALUES ($1, $2, $3, $4, $5)';
const planValues = (p: Plan) => [p.name, JSON.stringify(p.endpoints), p.ratePerMinute, p.monthlyQuota, p.testKeysAllowed];

/** SQLSTATEs of a flush that lost a race with another writer: retried on the next tick. */
const BUSY_SQLSTATES = new Set(['40P01', '40001', '55P03']);

export class PostgresAccessStore implements AccessStore, UsageStore {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async upsertPlan(p: Plan): Promise<void> {
    await exec(
      this.pool,
      `${PLAN_INSERT} ON CONFLICT (name) DO UPDATE SET endpoints = excluded.endpoints, rate_per_minute = excluded.rate_per_minute,
         monthly_quota = excluded.monthly_quota, test_keys_allowed = excluded.test_keys_allowed`,
      planValues(p),
    );
  }

  async seedPlans(plans: readonly Plan[]): Promise<void> {
    for (const p of plans) await exec(this.pool, `${PLAN_INSERT} ON CONFLICT (name) DO NOTHING`, planValues(p));
  }

  async listPlans(): Promise<Plan[]> {
    return (await rows(this.pool, `SELECT ${PLAN_COLUMNS} FROM plans p ORDER BY p.name`)).map(planFromRow);
  }

  async getPlan(name: string): Promise<Plan | null> {
    const [r] = await rows(this.pool, `SELECT ${PLAN_COLUMNS} FROM plans p WHERE p.name = $1`, [name]);
    return r ? planFromRow(r) : null;
  }

  async createOrg(org: Organisation): Promise<Organisation | null> {
    const n = await exec(
      this.pool,
      'INSERT INTO organisations (id, slug, plan, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (slug) DO NOTHING',
      [org.id, org.slug, org.plan, org.createdAt],
    );
    return n === 1 ? org : null;
  }

  async getOrg(slug: string): Promise<Organisation | null> {
    const [r] = await rows(this.pool, 'SELECT id, slug, plan, created_at FROM organisations WHERE slug = $1', [slug]);
    return r ? orgFromRow(r) : null;
  }

  async getOrgById(id: string): Promise<Organisation | null> {
    const [r] = await rows(this.pool, 'SELECT id, slug, plan, created_at FROM organisations WHERE id = $1', [id]);
    return r ? orgFromRow(r) : null;
  }

  async setOrgPlan(slug: string, plan: string): Promise<boolean> {
    return (await exec(this.pool, 'UPDATE organisations SET plan = $1 WHERE slug = $2', [plan, slug])) === 1;
  }

  async listOrgs(): Promise<Organisation[]> {
    return (await rows(this.pool, 'SELECT id, slug, plan, created_at FROM organisations ORDER BY slug')).map(orgFromRow);
  }

  async insertKey(k: NewKey): Promise<void> {
    await exec(
      this.pool,
      'INSERT INTO api_keys (id, org_id, hash, display_prefix, name, mode, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [k.id, k.orgId, k.hash, k.displayPrefix, k.name, k.mode, k.createdAt, k.expiresAt ?? null],
    );
  }

  async getKey(id: string): Promise<ApiKeyInfo | null> {
    const [r] = await rows(this.pool, `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = $1`, [id]);
    return r ? keyFromRow(r) : null;
  }

  async revokeKey(id: string, revokedAt: string): Promise<KeyRevocation | null> {
    const changed = await exec(this.pool, 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [revokedAt, id]);
    const key = await this.getKey(id);
    return key && { key, revokedNow: changed === 1 };
  }

  async listKeys(orgId: string): Promise<ApiKeyInfo[]> {
    return (await rows(this.pool, `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.org_id = $1 ORDER BY k.created_at COLLATE "C", k.id COLLATE "C"`, [orgId])).map(keyFromRow);
  }

  async findKeyByHash(hash: string): Promise<KeyLookup | null> {
    const [r] = await rows(
      this.pool,
      `SELECT ${KEY_COLUMNS}, o.slug AS o_slug, o.plan AS o_plan, o.created_at AS o_created_at,
              p.name AS p_name, p.endpoints, p.rate_per_minute, p.monthly_quota, p.test_keys_allowed
       FROM api_keys k JOIN organisations o ON o.id = k.org_id JOIN plans p ON p.name = o.plan
       WHERE k.hash = $1`,
      [hash],
    );
    return r ? keyLookupFromRow(r) : null;
  }

  async loadCounters(orgId: string, windows: string[]): Promise<Map<string, number>> {
    const found = await rows<{ window_key: string; count: string }>(
      this.pool,
      'SELECT window_key, count FROM limit_counters WHERE org_id = $1 AND window_key = ANY($2::text[])',
      [orgId, windows],
    );
    return new Map(found.map((r) => [r.window_key, Number(r.count)]));
  }

  /**
   * Counters are absolute values that only grow within a window: several
   * instances write what they last saw, and the largest wins. Usage adds up.
   * Every instance sorts its rows the same way (unnest keeps array order), so
   * two flushes lock shared rows in one order and cannot deadlock.
   */
  async flush(counters: CounterRow[], usage: UsageRow[], lastUsed: Map<string, string>, keepWindows: string[]): Promise<boolean> {
    const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const sortedCounters = [...counters].sort((a, b) => byText(a.orgId, b.orgId) || byText(a.window, b.window));
    const sortedUsage = [...usage].sort((a, b) => byText(a.keyId, b.keyId) || byText(a.day, b.day) || byText(a.outcome, b.outcome));
    const touched = [...lastUsed].sort(([a], [b]) => byText(a, b));
    try {
      await transaction(this.pool, async (client) => {
        if (sortedCounters.length > 0) {
          await exec(
            client,
            `INSERT INTO limit_counters (org_id, window_key, count)
             SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
             ON CONFLICT (org_id, window_key) DO UPDATE SET count = GREATEST(limit_counters.count, excluded.count)`,
            [sortedCounters.map((c) => c.orgId), sortedCounters.map((c) => c.window), sortedCounters.map((c) => c.count)],
          );
        }
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
      });
    } catch (error) {
      if (BUSY_SQLSTATES.has(String((error as { code?: unknown }).code))) return false;
      throw error;
    }
    if (keepWindows.length > 0) {
      // Only minutes before every kept one: another instance may still be writing a kept minute.
      const oldest = [...keepWindows].sort()[0]!;
      await exec(this.pool, `DELETE FROM limit_counters WHERE window_key LIKE 'minute:%' AND window_key < $1`, [oldest]);
    }
    return true;
  }

  async usageByDay(orgId: string, month: string): Promise<UsageRow[]> {
    const found = await rows(
      this.pool,
      `SELECT u.key_id, u.day, u.outcome, u.count FROM usage_daily u JOIN api_keys k ON k.id = u.key_id
       WHERE k.org_id = $1 AND u.day >= $2 AND u.day < $3
       ORDER BY u.day COLLATE "C", u.key_id COLLATE "C", u.outcome COLLATE "C"`,
      [orgId, `${month}-01`, `${month}-32`],
    );
    return found.map((r) => ({ keyId: String(r.key_id), day: String(r.day), outcome: r.outcome as UsageRow['outcome'], count: Number(r.count) }));
  }
}
