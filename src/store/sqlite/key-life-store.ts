/** KeyLifeStore over node:sqlite, sharing the store's connection. */
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
import type { Row } from '../row-mappers.ts';
import { isBusy, tryWrite } from './busy.ts';
import { SqliteStatements } from './statements.ts';

export class SqliteKeyLifeStore extends SqliteStatements implements KeyLifeStore {
  async shortenExpiry(keyId: string, expiresAt: string): Promise<boolean> {
    const result = await this.write(
      'UPDATE api_keys SET expires_at = ? WHERE id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
      expiresAt,
      keyId,
      expiresAt,
    );
    return Number(result.changes) === 1;
  }

  async addExposure(e: NewExposure): Promise<void> {
    await this.write(
      'INSERT INTO key_exposures (key_id, org_id, via, at, address, route, revoked) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ...[e.keyId, e.orgId, e.via, e.at, e.address, e.route, e.revoked ? 1 : 0],
    );
  }

  async listExposures(orgId: string, limit: number): Promise<Exposure[]> {
    return (this.stmt('SELECT * FROM key_exposures WHERE org_id = ? ORDER BY id DESC LIMIT ?').all(orgId, limit) as Row[]).map(exposureFromRow);
  }

  async getOrgSettings(orgId: string): Promise<OrgSettings> {
    const r = this.stmt('SELECT * FROM org_settings WHERE org_id = ?').get(orgId) as Row | undefined;
    if (!r) return { ...DEFAULT_ORG_SETTINGS };
    return { autoRevokeExposed: Number(r.auto_revoke_exposed) === 1, requestLogDays: Number(r.request_log_days), requestLogMax: Number(r.request_log_max) };
  }

  async setOrgSettings(orgId: string, s: OrgSettings): Promise<void> {
    await this.write(
      `INSERT INTO org_settings (org_id, auto_revoke_exposed, request_log_days, request_log_max) VALUES (?, ?, ?, ?)
       ON CONFLICT (org_id) DO UPDATE SET auto_revoke_exposed = excluded.auto_revoke_exposed,
         request_log_days = excluded.request_log_days, request_log_max = excluded.request_log_max`,
      ...[orgId, s.autoRevokeExposed ? 1 : 0, s.requestLogDays, s.requestLogMax],
    );
  }

  async usageSince(orgId: string, fromDay: string): Promise<UsageRow[]> {
    return (
      this.stmt(
        `SELECT u.key_id, u.day, u.outcome, u.count FROM usage_daily u JOIN api_keys k ON k.id = u.key_id
         WHERE k.org_id = ? AND u.day >= ? ORDER BY u.day, u.key_id, u.outcome`,
      ).all(orgId, fromDay) as Row[]
    ).map(usageFromRow);
  }

  async appendRequests(entries: RequestLogEntry[]): Promise<boolean> {
    if (entries.length === 0) return true;
    // Never wait for the lock (an import may hold it): the caller keeps the entries for the next tick.
    try {
      tryWrite(this.db, () => this.db.exec('BEGIN IMMEDIATE'));
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    }
    try {
      const insert = this.stmt(
        `INSERT INTO request_log (org_id, key_id, key_prefix, at, method, path, status, error_code, duration_ms, request_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const e of entries) insert.run(e.orgId, e.keyId, e.keyPrefix, e.at, e.method, e.path, e.status, e.errorCode, e.durationMs, e.requestId);
      this.db.exec('COMMIT');
      return true;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async pageRequests(q: RequestLogQuery): Promise<{ entries: LoggedRequest[]; hasMore: boolean }> {
    const where = ['org_id = ?'];
    const params: (string | number)[] = [q.orgId];
    const add = (sql: string, ...values: (string | number)[]) => {
      where.push(sql);
      params.push(...values);
    };
    if (q.keyId !== null) add('key_id = ?', q.keyId);
    if (q.statusClass !== null) add('status >= ? AND status < ?', q.statusClass * 100, q.statusClass * 100 + 100);
    if (q.requestId !== null) add('request_id = ?', q.requestId);
    if (q.before !== null) add('id < ?', q.before);
    const found = (this.stmt(`SELECT * FROM request_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`).all(...params, q.limit + 1) as Row[]).map(
      loggedRequestFromRow,
    );
    return { entries: found.slice(0, q.limit), hasMore: found.length > q.limit };
  }

  async pruneRequests(orgId: string, before: string, keep: number): Promise<void> {
    await this.write('DELETE FROM request_log WHERE org_id = ? AND at < ?', orgId, before);
    const edge = this.stmt('SELECT id FROM request_log WHERE org_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?').get(orgId, keep - 1) as Row | undefined;
    if (edge) await this.write('DELETE FROM request_log WHERE org_id = ? AND id < ?', orgId, Number(edge.id));
  }

  async orgsWithRequests(): Promise<string[]> {
    return (this.stmt('SELECT DISTINCT org_id FROM request_log').all() as Row[]).map((r) => String(r.org_id));
  }
}
