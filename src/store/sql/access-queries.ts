/**
 * Plans, organisations, keys and the reads of usage, written once for both
 * backends over their Sql (see sql.ts). Only the usage writes differ by
 * backend (sqlite/access-store.ts, postgres/access-store.ts), and where a key's last use is kept.
 */
import type { ApiKeyInfo, Organisation, Plan } from '../../domain/access.ts';
import type { AccessStore, KeyLookup, KeyRevocation, NewKey, UsageRow } from '../access-store.ts';
import { keyFromRow, keyLookupFromRow, orgFromRow, planFromRow } from './row-mappers.ts';
import { placeholders, type Sql, type SqlValue } from './sql.ts';

/** A key's columns but its last use, which the backend's store names (SQLite keeps it in another file). */
const KEY_COLUMNS = 'k.id, k.org_id, k.name, k.mode, k.display_prefix, k.created_at, k.revoked_at, k.expires_at';
const PLAN_COLUMNS = 'p.name, p.endpoints, p.rate_per_minute, p.monthly_quota, p.test_keys_allowed';
const ORG_COLUMNS = 'id, slug, plan, created_at';
const PLAN_INSERT = 'INSERT INTO plans (name, endpoints, rate_per_minute, monthly_quota, test_keys_allowed) VALUES (?, ?, ?, ?, ?)';

export class SqlAccessStore implements AccessStore {
  protected readonly sql: Sql;
  private readonly keyColumns: string;

  /** lastUsedAt: the expression of a key's last use, for the key row `k`, named last_used_at. */
  constructor(sql: Sql, lastUsedAt = 'k.last_used_at') {
    this.sql = sql;
    this.keyColumns = `${KEY_COLUMNS}, ${lastUsedAt}`;
  }

  private planValues(p: Plan): SqlValue[] {
    return [p.name, JSON.stringify(p.endpoints), p.ratePerMinute, p.monthlyQuota, this.sql.bool(p.testKeysAllowed)];
  }

  async upsertPlan(p: Plan): Promise<void> {
    await this.sql.run(
      `${PLAN_INSERT} ON CONFLICT (name) DO UPDATE SET endpoints = excluded.endpoints, rate_per_minute = excluded.rate_per_minute,
         monthly_quota = excluded.monthly_quota, test_keys_allowed = excluded.test_keys_allowed`,
      this.planValues(p),
    );
  }

  async seedPlans(plans: readonly Plan[]): Promise<void> {
    // Every process start seeds: read first, so that starting needs no write (lock) once the plans exist.
    const existing = new Set((await this.listPlans()).map((p) => p.name));
    for (const p of plans.filter((plan) => !existing.has(plan.name))) {
      await this.sql.run(`${PLAN_INSERT} ON CONFLICT (name) DO NOTHING`, this.planValues(p));
    }
  }

  async listPlans(): Promise<Plan[]> {
    return (await this.sql.rows(`SELECT ${PLAN_COLUMNS} FROM plans p ORDER BY ${this.sql.byteOrder('p.name')}`)).map(planFromRow);
  }

  async getPlan(name: string): Promise<Plan | null> {
    const [r] = await this.sql.rows(`SELECT ${PLAN_COLUMNS} FROM plans p WHERE p.name = ?`, [name]);
    return r ? planFromRow(r) : null;
  }

  async createOrg(org: Organisation): Promise<Organisation | null> {
    const n = await this.sql.run(`INSERT INTO organisations (${ORG_COLUMNS}) VALUES (?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING`, [
      org.id,
      org.slug,
      org.plan,
      org.createdAt,
    ]);
    return n === 1 ? org : null;
  }

  async getOrg(slug: string): Promise<Organisation | null> {
    const [r] = await this.sql.rows(`SELECT ${ORG_COLUMNS} FROM organisations WHERE slug = ?`, [slug]);
    return r ? orgFromRow(r) : null;
  }

  async getOrgById(id: string): Promise<Organisation | null> {
    const [r] = await this.sql.rows(`SELECT ${ORG_COLUMNS} FROM organisations WHERE id = ?`, [id]);
    return r ? orgFromRow(r) : null;
  }

  async setOrgPlan(slug: string, plan: string): Promise<boolean> {
    return (await this.sql.run('UPDATE organisations SET plan = ? WHERE slug = ?', [plan, slug])) === 1;
  }

  async listOrgs(): Promise<Organisation[]> {
    return (await this.sql.rows(`SELECT ${ORG_COLUMNS} FROM organisations ORDER BY ${this.sql.byteOrder('slug')}`)).map(orgFromRow);
  }

  async insertKey(k: NewKey): Promise<void> {
    await this.sql.run('INSERT INTO api_keys (id, org_id, hash, display_prefix, name, mode, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      k.id,
      k.orgId,
      k.hash,
      k.displayPrefix,
      k.name,
      k.mode,
      k.createdAt,
      k.expiresAt ?? null,
    ]);
  }

  async getKey(id: string): Promise<ApiKeyInfo | null> {
    const [r] = await this.sql.rows(`SELECT ${this.keyColumns} FROM api_keys k WHERE k.id = ?`, [id]);
    return r ? keyFromRow(r) : null;
  }

  async revokeKey(id: string, revokedAt: string): Promise<KeyRevocation | null> {
    const changed = await this.sql.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [revokedAt, id]);
    const key = await this.getKey(id);
    return key && { key, revokedNow: changed === 1 };
  }

  async listKeys(orgId: string): Promise<ApiKeyInfo[]> {
    const order = `${this.sql.byteOrder('k.created_at')}, ${this.sql.byteOrder('k.id')}`;
    return (await this.sql.rows(`SELECT ${this.keyColumns} FROM api_keys k WHERE k.org_id = ? ORDER BY ${order}`, [orgId])).map(keyFromRow);
  }

  async findKeyByHash(hash: string): Promise<KeyLookup | null> {
    const [r] = await this.sql.rows(
      `SELECT ${this.keyColumns}, o.slug AS o_slug, o.plan AS o_plan, o.created_at AS o_created_at,
              p.name AS p_name, p.endpoints, p.rate_per_minute, p.monthly_quota, p.test_keys_allowed
       FROM api_keys k JOIN organisations o ON o.id = k.org_id JOIN plans p ON p.name = o.plan
       WHERE k.hash = ?`,
      [hash],
    );
    return r ? keyLookupFromRow(r) : null;
  }

  async keyHashes(max: number): Promise<string[] | null> {
    const rows = await this.sql.rows('SELECT hash FROM api_keys LIMIT ?', [max + 1]);
    return rows.length > max ? null : rows.map((r) => String(r.hash));
  }

  /** Counts of the given windows for one organisation (missing windows: absent). */
  async loadCounters(orgId: string, windows: string[]): Promise<Map<string, number>> {
    if (windows.length === 0) return new Map();
    const found = await this.sql.rows(`SELECT window_key, count FROM limit_counters WHERE org_id = ? AND window_key IN (${placeholders(windows.length)})`, [
      orgId,
      ...windows,
    ]);
    return new Map(found.map((r) => [String(r.window_key), Number(r.count)]));
  }

  /** Usage of an organisation's keys in one month ('YYYY-MM'), by key, day and outcome. */
  async usageByDay(orgId: string, month: string): Promise<UsageRow[]> {
    const order = ['u.day', 'u.key_id', 'u.outcome'].map((c) => this.sql.byteOrder(c)).join(', ');
    const found = await this.sql.rows(
      `SELECT u.key_id, u.day, u.outcome, u.count FROM usage_daily u JOIN api_keys k ON k.id = u.key_id
       WHERE k.org_id = ? AND u.day >= ? AND u.day < ? ORDER BY ${order}`,
      [orgId, `${month}-01`, `${month}-32`],
    );
    return found.map((r) => ({ keyId: String(r.key_id), day: String(r.day), outcome: r.outcome as UsageRow['outcome'], count: Number(r.count) }));
  }
}
