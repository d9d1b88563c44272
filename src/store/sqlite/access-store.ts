/** AccessStore and UsageStore over node:sqlite, sharing the store's connection. */
import type { ApiKeyInfo, Organisation, Plan } from '../../domain/access.ts';
import type { AccessStore, CounterRow, KeyLookup, KeyRevocation, NewKey, UsageRow, UsageStore } from '../access-store.ts';
import { isBusy, tryWrite } from './busy.ts';
import { SqliteStatements } from './statements.ts';
import { keyFromRow, keyLookupFromRow, orgFromRow, planFromRow, type Row } from '../row-mappers.ts';

const KEY_COLUMNS = 'k.id, k.org_id, k.name, k.mode, k.display_prefix, k.created_at, k.revoked_at, k.last_used_at, k.expires_at';

export class SqliteAccessStore extends SqliteStatements implements AccessStore, UsageStore {

  async upsertPlan(p: Plan): Promise<void> {
    await this.write(
      `INSERT INTO plans (name, endpoints, rate_per_minute, monthly_quota, test_keys_allowed) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET endpoints = excluded.endpoints, rate_per_minute = excluded.rate_per_minute,
         monthly_quota = excluded.monthly_quota, test_keys_allowed = excluded.test_keys_allowed`,
      ...[p.name, JSON.stringify(p.endpoints), p.ratePerMinute, p.monthlyQuota, p.testKeysAllowed ? 1 : 0],
    );
  }

  async seedPlans(plans: readonly Plan[]): Promise<void> {
    // Every process start seeds: read first, so that starting needs no write lock once the plans exist.
    const existing = new Set((await this.listPlans()).map((p) => p.name));
    for (const p of plans.filter((plan) => !existing.has(plan.name))) {
      await this.write(
        `INSERT INTO plans (name, endpoints, rate_per_minute, monthly_quota, test_keys_allowed) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (name) DO NOTHING`,
        ...[p.name, JSON.stringify(p.endpoints), p.ratePerMinute, p.monthlyQuota, p.testKeysAllowed ? 1 : 0],
      );
    }
  }

  async listPlans(): Promise<Plan[]> {
    return (this.stmt('SELECT * FROM plans ORDER BY name').all() as Row[]).map(planFromRow);
  }

  async getPlan(name: string): Promise<Plan | null> {
    const r = this.stmt('SELECT * FROM plans WHERE name = ?').get(name) as Row | undefined;
    return r ? planFromRow(r) : null;
  }

  async createOrg(org: Organisation): Promise<Organisation | null> {
    const result = await this.write(
      'INSERT INTO organisations (id, slug, plan, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING',
      ...[org.id, org.slug, org.plan, org.createdAt],
    );
    return Number(result.changes) === 1 ? org : null;
  }

  async getOrg(slug: string): Promise<Organisation | null> {
    const r = this.stmt('SELECT * FROM organisations WHERE slug = ?').get(slug) as Row | undefined;
    return r ? orgFromRow(r) : null;
  }

  async getOrgById(id: string): Promise<Organisation | null> {
    const r = this.stmt('SELECT * FROM organisations WHERE id = ?').get(id) as Row | undefined;
    return r ? orgFromRow(r) : null;
  }

  async setOrgPlan(slug: string, plan: string): Promise<boolean> {
    return Number((await this.write('UPDATE organisations SET plan = ? WHERE slug = ?', plan, slug)).changes) === 1;
  }

  async listOrgs(): Promise<Organisation[]> {
    return (this.stmt('SELECT * FROM organisations ORDER BY slug').all() as Row[]).map(orgFromRow);
  }

  async insertKey(k: NewKey): Promise<void> {
    await this.write(
      `INSERT INTO api_keys (id, org_id, hash, display_prefix, name, mode, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ...[k.id, k.orgId, k.hash, k.displayPrefix, k.name, k.mode, k.createdAt, k.expiresAt ?? null],
    );
  }

  async getKey(id: string): Promise<ApiKeyInfo | null> {
    const r = this.stmt(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = ?`).get(id) as Row | undefined;
    return r ? keyFromRow(r) : null;
  }

  async revokeKey(id: string, revokedAt: string): Promise<KeyRevocation | null> {
    const result = await this.write('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', revokedAt, id);
    const key = await this.getKey(id);
    return key && { key, revokedNow: Number(result.changes) === 1 };
  }

  async listKeys(orgId: string): Promise<ApiKeyInfo[]> {
    return (this.stmt(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.org_id = ? ORDER BY k.created_at, k.id`).all(orgId) as Row[]).map(keyFromRow);
  }

  async findKeyByHash(hash: string): Promise<KeyLookup | null> {
    const r = this.stmt(
      `SELECT ${KEY_COLUMNS}, o.slug AS o_slug, o.plan AS o_plan, o.created_at AS o_created_at,
              p.name AS p_name, p.endpoints, p.rate_per_minute, p.monthly_quota, p.test_keys_allowed
       FROM api_keys k JOIN organisations o ON o.id = k.org_id JOIN plans p ON p.name = o.plan
       WHERE k.hash = ?`,
    ).get(hash) as Row | undefined;
    return r ? keyLookupFromRow(r) : null;
  }

  async loadCounters(orgId: string, windows: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const get = this.stmt('SELECT count FROM limit_counters WHERE org_id = ? AND window = ?');
    for (const w of windows) {
      const r = get.get(orgId, w) as { count: number } | undefined;
      if (r) out.set(w, Number(r.count));
    }
    return out;
  }

  async flush(counters: CounterRow[], usage: UsageRow[], lastUsed: Map<string, string>, keepWindows: string[]): Promise<boolean> {
    // Never wait for another writer (an import may hold the lock for seconds):
    // the caller keeps its counts and retries on the next tick.
    try {
      tryWrite(this.db, () => this.db.exec('BEGIN IMMEDIATE'));
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    }
    try {
      const setCounter = this.stmt(
        'INSERT INTO limit_counters (org_id, window, count) VALUES (?, ?, ?) ON CONFLICT (org_id, window) DO UPDATE SET count = excluded.count',
      );
      for (const c of counters) setCounter.run(c.orgId, c.window, c.count);
      const addUsage = this.stmt(
        'INSERT INTO usage_daily (key_id, day, outcome, count) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, day, outcome) DO UPDATE SET count = count + excluded.count',
      );
      for (const u of usage) addUsage.run(u.keyId, u.day, u.outcome, u.count);
      const touch = this.stmt('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)');
      for (const [keyId, at] of lastUsed) touch.run(at, keyId, at);
      if (keepWindows.length > 0) {
        // Past minutes are of no further use.
        const placeholders = keepWindows.map(() => '?').join(', ');
        this.db.prepare(`DELETE FROM limit_counters WHERE window LIKE 'minute:%' AND window NOT IN (${placeholders})`).run(...keepWindows);
      }
      this.db.exec('COMMIT');
      return true;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async usageByDay(orgId: string, month: string): Promise<UsageRow[]> {
    return (
      this.stmt(
        `SELECT u.key_id, u.day, u.outcome, u.count FROM usage_daily u JOIN api_keys k ON k.id = u.key_id
         WHERE k.org_id = ? AND u.day >= ? AND u.day < ? ORDER BY u.day, u.key_id, u.outcome`,
      ).all(orgId, `${month}-01`, `${month}-32`) as Row[]
    ).map((r) => ({ keyId: String(r.key_id), day: String(r.day), outcome: r.outcome as UsageRow['outcome'], count: Number(r.count) }));
  }
}
