/** KeyLifeStore over PostgreSQL, one request log for every instance: the shared queries, and a batch appended as one statement. */
import type pg from 'pg';
import { EVENT_LOOP_APPEND, type RequestBatch } from '../../domain/request-batch.ts';
import { SqlKeyLifeStore } from '../sql/key-life-queries.ts';
import { exec } from './pg-client.ts';
import { PostgresSql } from './sql.ts';

export class PostgresKeyLifeStore extends SqlKeyLifeStore {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    super(new PostgresSql(pool));
    this.pool = pool;
  }

  /** One statement of this many rows is built on the event loop (each entry's fields as text). */
  readonly appendLimits = EVENT_LOOP_APPEND;

  async appendRequests(batch: RequestBatch): Promise<boolean> {
    if (batch.length === 0) return true;
    const entries = batch.entries();
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
}
