/**
 * The KeyLifeStore written once for both backends over their Sql (see
 * sql.ts). Only the append of a batch to the request log differs (SQLite
 * must never wait for the write lock there; PostgreSQL appends the batch as
 * one statement), so each backend's class supplies that one method. The
 * records of keys' life without the request log (SqlKeyRecords) are what a
 * transaction writes (transaction.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppendLimits, RequestBatch } from '../../domain/request-batch.ts';
import type { UsageRow } from '../access-store.ts';
import { exposureFromRow, loggedRequestFromRow, usageFromRow } from '../key-life-rows.ts';
import {
  DEFAULT_ORG_SETTINGS,
  type Exposure,
  type KeyLifeStore,
  type KeyRecordStore,
  type LoggedRequest,
  type NewExposure,
  type OrgSettings,
  type RequestLogQuery,
} from '../key-life-store.ts';
import { flag } from './row-mappers.ts';
import { pruneRequestLog } from './request-log-prune.ts';
import type { Sql, SqlValue } from './sql.ts';

export class SqlKeyRecords implements KeyRecordStore {
  protected readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async shortenExpiry(keyId: string, expiresAt: string): Promise<boolean> {
    const n = await this.sql.run('UPDATE api_keys SET expires_at = ? WHERE id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)', [
      expiresAt,
      keyId,
      expiresAt,
    ]);
    return n === 1;
  }

  async addRoll(keyId: string, successorId: string, at: string): Promise<void> {
    await this.sql.run('INSERT INTO key_rolls (key_id, successor_id, at) VALUES (?, ?, ?)', [keyId, successorId, at]);
  }

  async successorOf(keyId: string): Promise<string | null> {
    const [r] = await this.sql.rows('SELECT successor_id FROM key_rolls WHERE key_id = ? ORDER BY id DESC LIMIT 1', [keyId]);
    return r ? String(r.successor_id) : null;
  }

  async addExposure(e: NewExposure): Promise<void> {
    await this.sql.run('INSERT INTO key_exposures (key_id, org_id, via, at, address, route, revoked) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      e.keyId,
      e.orgId,
      e.via,
      e.at,
      e.address,
      e.route,
      this.sql.bool(e.revoked),
    ]);
  }

  async listExposures(orgId: string, limit: number): Promise<Exposure[]> {
    return (await this.sql.rows('SELECT * FROM key_exposures WHERE org_id = ? ORDER BY id DESC LIMIT ?', [orgId, limit])).map(exposureFromRow);
  }

  async getOrgSettings(orgId: string): Promise<OrgSettings> {
    const [r] = await this.sql.rows('SELECT * FROM org_settings WHERE org_id = ?', [orgId]);
    if (!r) return { ...DEFAULT_ORG_SETTINGS };
    return { autoRevokeExposed: flag(r.auto_revoke_exposed), requestLogDays: Number(r.request_log_days), requestLogMax: Number(r.request_log_max) };
  }

  async setOrgSettings(orgId: string, s: OrgSettings): Promise<void> {
    await this.sql.run(
      `INSERT INTO org_settings (org_id, auto_revoke_exposed, request_log_days, request_log_max) VALUES (?, ?, ?, ?)
       ON CONFLICT (org_id) DO UPDATE SET auto_revoke_exposed = excluded.auto_revoke_exposed,
         request_log_days = excluded.request_log_days, request_log_max = excluded.request_log_max`,
      [orgId, this.sql.bool(s.autoRevokeExposed), s.requestLogDays, s.requestLogMax],
    );
  }

  async usageSince(orgId: string, fromDay: string): Promise<UsageRow[]> {
    const order = ['u.day', 'u.key_id', 'u.outcome'].map((c) => this.sql.byteOrder(c)).join(', ');
    return (
      await this.sql.rows(
        `SELECT u.key_id, u.day, u.outcome, u.count FROM usage_daily u JOIN api_keys k ON k.id = u.key_id
         WHERE k.org_id = ? AND u.day >= ? ORDER BY ${order}`,
        [orgId, fromDay],
      )
    ).map(usageFromRow);
  }
}

export abstract class SqlKeyLifeStore extends SqlKeyRecords implements KeyLifeStore {
  /** Appends the batch whole; false when it could not be written now (the caller keeps it for later). */
  abstract appendRequests(batch: RequestBatch): Promise<boolean>;
  abstract readonly appendLimits: AppendLimits;

  async pageRequests(q: RequestLogQuery): Promise<{ entries: LoggedRequest[]; hasMore: boolean }> {
    const where = ['org_id = ?'];
    const params: SqlValue[] = [q.orgId];
    const add = (sql: string, ...values: SqlValue[]) => {
      where.push(sql);
      params.push(...values);
    };
    if (q.keyId !== null) add('key_id = ?', q.keyId);
    if (q.statusClass !== null) add('status >= ? AND status < ?', q.statusClass * 100, q.statusClass * 100 + 100);
    if (q.requestId !== null) add('request_id = ?', q.requestId);
    if (q.before !== null) add('id < ?', q.before);
    const found = (await this.sql.rows(`SELECT * FROM request_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`, [...params, q.limit + 1])).map(
      loggedRequestFromRow,
    );
    return { entries: found.slice(0, q.limit), hasMore: found.length > q.limit };
  }

  /**
   * Where the request log's deletes run: the store's Sql unless a backend says otherwise (SQLite: the
   * log lives in the activity file, which an import never locks, so its deletes wait as for any writer).
   */
  protected get requestLogSql(): Sql {
    return this.sql;
  }

  async pruneRequests(orgId: string, before: string, keep: number): Promise<void> {
    const sql = this.requestLogSql;
    const firstId = async (query: string, params: SqlValue[]) => {
      const [row] = await sql.rows(query, params);
      return row === undefined ? null : Number(row.id);
    };
    await pruneRequestLog({ firstId, run: (query, params) => sql.run(query, params) }, orgId, before, keep, () => nextTurn());
  }

  async orgsWithRequests(): Promise<string[]> {
    return (await this.sql.rows('SELECT DISTINCT org_id FROM request_log')).map((r) => String(r.org_id));
  }
}
