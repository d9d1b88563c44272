/** KeyLifeStore over PostgreSQL: one request log for every instance. */
import type pg from 'pg';
import type { UsageRow } from '../access-store.ts';
import {
  DEFAULT_ORG_SETTINGS,
  type Exposure,
  type KeyLifeStore,
  type LoggedRequest,
  type NewExposure,
  type OrgSettings,
  type RequestLogEntry,
  type RequestLogQuery,
} from '../key-life-store.ts';
import { exposureFromRow, loggedRequestFromRow, usageFromRow } from '../key-life-rows.ts';
import { exec, rows } from './pg-client.ts';

export class PostgresKeyLifeStore implements KeyLifeStore {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async shortenExpiry(keyId: string, expiresAt: string): Promise<boolean> {
    const n = await exec(this.pool, 'UPDATE api_keys SET expires_at = $1 WHERE id = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1)', [
      expiresAt,
      keyId,
    ]);
    return n === 1;
  }

  async addExposure(e: NewExposure): Promise<void> {
    await exec(this.pool, 'INSERT INTO key_exposures (key_id, org_id, via, at, address, route, revoked) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      e.keyId,
      e.orgId,
      e.via,
      e.at,
      e.address,
      e.route,
      e.revoked,
    ]);
  }

  async listExposures(orgId: string, limit: number): Promise<Exposure[]> {
    return (await rows(this.pool, 'SELECT * FROM key_exposures WHERE org_id = $1 ORDER BY id DESC LIMIT $2', [orgId, limit])).map(exposureFromRow);
  }

  async getOrgSettings(orgId: string): Promise<OrgSettings> {
    const [r] = await rows(this.pool, 'SELECT * FROM org_settings WHERE org_id = $1', [orgId]);
    if (!r) return { ...DEFAULT_ORG_SETTINGS };
    return { autoRevokeExposed: r.auto_revoke_exposed === true, requestLogDays: Number(r.request_log_days), requestLogMax: Number(r.request_log_max) };
  }

  async setOrgSettings(orgId: string, s: OrgSettings): Promise<void> {
    await exec(
      this.pool,
      `INSERT INTO org_settings (org_id, auto_revoke_exposed, request_log_days, request_log_max) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id) DO UPDATE SET auto_revoke_exposed = excluded.auto_revoke_exposed,
         request_log_days = excluded.request_log_days, request_log_max = excluded.request_log_max`,
      [orgId, s.autoRevokeExposed, s.requestLogDays, s.requestLogMax],
    );
  }

  async usageSince(orgId: string, fromDay: string): Promise<UsageRow[]> {
    return (
      await rows(
        this.pool,
        `SELECT u.key_id, u.day, u.outcome, u.count FROM usage_daily u JOIN api_keys k ON k.id = u.key_id
         WHERE k.org_id = $1 AND u.day >= $2 ORDER BY u.day COLLATE "C", u.key_id COLLATE "C", u.outcome COLLATE "C"`,
        [orgId, fromDay],
      )
    ).map(usageFromRow);
  }

  async appendRequests(entries: RequestLogEntry[]): Promise<boolean> {
    if (entries.length === 0) return true;
    // One statement: the batch is appended whole or not at all.
    await exec(
      this.pool,
      `INSERT INTO request_log (org_id, key_id, key_prefix, at, method, path, status, error_code, duration_ms, request_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::float8[], $10::text[])`,
      [
        entries.map((e) => e.orgId),
        entries.map((e) => e.keyId),
        entries.map((e) => e.keyPrefix),
        entries.map((e) => e.at),
        entries.map((e) => e.method),
        entries.map((e) => e.path),
        entries.map((e) => e.status),
        entries.map((e) => e.errorCode) as string[],
        entries.map((e) => e.durationMs),
        entries.map((e) => e.requestId),
      ],
    );
    return true;
  }

  async pageRequests(q: RequestLogQuery): Promise<{ entries: LoggedRequest[]; hasMore: boolean }> {
    const where = ['org_id = $1'];
    const params: (string | number)[] = [q.orgId];
    const add = (sql: (n: number) => string, ...values: (string | number)[]) => {
      where.push(sql(params.length + 1));
      params.push(...values);
    };
    if (q.keyId !== null) add((n) => `key_id = $${n}`, q.keyId);
    if (q.statusClass !== null) add((n) => `status >= $${n} AND status < $${n + 1}`, q.statusClass * 100, q.statusClass * 100 + 100);
    if (q.requestId !== null) add((n) => `request_id = $${n}`, q.requestId);
    if (q.before !== null) add((n) => `id < $${n}`, q.before);
    params.push(q.limit + 1);
    const found = (await rows(this.pool, `SELECT * FROM request_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${params.length}`, params)).map(
      loggedRequestFromRow,
    );
    return { entries: found.slice(0, q.limit), hasMore: found.length > q.limit };
  }

  async pruneRequests(orgId: string, before: string, keep: number): Promise<void> {
    await exec(this.pool, 'DELETE FROM request_log WHERE org_id = $1 AND at < $2', [orgId, before]);
    await exec(
      this.pool,
      `DELETE FROM request_log WHERE org_id = $1 AND id < (SELECT id FROM request_log WHERE org_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`,
      [orgId, keep - 1],
    );
  }

  async orgsWithRequests(): Promise<string[]> {
    return (await rows(this.pool, 'SELECT DISTINCT org_id FROM request_log')).map((r) => String(r.org_id));
  }
}
