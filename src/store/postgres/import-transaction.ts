/** The operations of one import, on the connection that holds the import lock. */
import type pg from 'pg';
import type { CodeStatus } from '../../domain/records.ts';
import type { ChangeWrite, CodeWrite, ImportTransaction, StoredCode } from '../store.ts';
import { storedCodeFromRow } from '../stored-code.ts';
import { arrays, exec } from './pg-client.ts';
import { searchRowOf } from '../search-walk.ts';
import { writeSearchRows } from './search.ts';
import { PostgresReleaseTransaction } from './systems.ts';
import type { ReleaseWrite } from '../systems-store.ts';
import { PostgresNavigationWriter } from './navigation-writer.ts';

/** Rows per INSERT … SELECT FROM unnest(…): large enough to amortise the round trip. */
const CHUNK = 5_000;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export class PostgresImportTransaction implements ImportTransaction {
  private readonly client: pg.Client;
  readonly navigation: PostgresNavigationWriter;

  private readonly releases: PostgresReleaseTransaction;
  constructor(client: pg.Client) {
    this.client = client;
    this.releases = new PostgresReleaseTransaction(client);
    this.navigation = new PostgresNavigationWriter(client);
  }

  releaseExists(system: string, name: string): Promise<boolean> {
    return this.releases.releaseExists(system, name);
  }

  latestReleaseDate(system: string): Promise<string | null> {
    return this.releases.latestReleaseDate(system);
  }

  recordRelease(release: ReleaseWrite): Promise<void> {
    return this.releases.recordRelease(release);
  }

  async codeHashes(system: string): Promise<Map<string, { hash: string; status: CodeStatus }>> {
    const found = await arrays<[string, string, CodeStatus]>(this.client, 'SELECT id, hash, status FROM codes WHERE system = $1', [system]);
    const map = new Map<string, { hash: string; status: CodeStatus }>();
    for (const [id, hash, status] of found) map.set(id, { hash, status });
    return map;
  }

  async codeStatesAfter(system: string, after: string, limit: number): Promise<[string, string, CodeStatus][]> {
    return arrays<[string, string, CodeStatus]>(this.client, 'SELECT id, hash, status FROM codes WHERE system = $1 AND id > $2 ORDER BY id LIMIT $3', [
      system,
      after,
      limit,
    ]);
  }

  async codesById(ids: string[]): Promise<StoredCode[]> {
    const out: StoredCode[] = [];
    for (const part of chunks(ids)) {
      const found = await arrays<[string, string]>(this.client, 'SELECT id, json FROM codes WHERE id = ANY($1::text[])', [part]);
      for (const [id, json] of found) out.push(storedCodeFromRow(id, json));
    }
    return out;
  }

  async latestEffectiveDate(system: string | null): Promise<string | null> {
    const [[latest] = [null]] =
      system === null
        ? await arrays<[string | null]>(this.client, 'SELECT max(effective_date) FROM changes')
        : await arrays<[string | null]>(this.client, 'SELECT max(effective_date) FROM changes WHERE system = $1', [system]);
    return latest;
  }

  /**
   * Read under the import lock, after every earlier import has committed
   * (READ COMMITTED takes a fresh snapshot per statement), so ids are dense
   * and grow in commit order.
   */
  async nextChangeId(): Promise<number> {
    const [[next] = ['1']] = await arrays<[string]>(this.client, 'SELECT coalesce(max(id), 0) + 1 FROM changes');
    return Number(next);
  }

  async writeChanges(changes: ChangeWrite[]): Promise<void> {
    for (const part of chunks(changes)) {
      await exec(
        this.client,
        `INSERT INTO changes (id, code_id, system, type, effective_date, json, release)
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
        [
          part.map((c) => c.id),
          part.map((c) => c.codeId),
          part.map((c) => c.system),
          part.map((c) => c.type),
          part.map((c) => c.effectiveDate),
          part.map((c) => c.json),
          part.map((c) => c.release),
        ],
      );
    }
  }

  /** Code rows written so far: a large import is followed by fresh planner statistics. */
  codesWritten = 0;

  /** Nothing to prepare: PostgreSQL's search index is kept row by row. */
  async expectCodes(): Promise<void> {}

  async writeCodes(codes: CodeWrite[]): Promise<void> {
    this.codesWritten += codes.length;
    // One statement may not upsert a row twice: the last write of an id wins, as it would row by row.
    const last = new Map<string, CodeWrite>();
    for (const c of codes) last.set(c.id, c);
    for (const part of chunks([...last.values()])) {
      await exec(
        this.client,
        `INSERT INTO codes (id, system, code, status, hash, json, root)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[])
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, hash = excluded.hash, json = excluded.json, root = excluded.root`,
        [
          part.map((c) => c.id),
          part.map((c) => c.system),
          part.map((c) => c.code),
          part.map((c) => c.status),
          part.map((c) => c.hash),
          part.map((c) => c.json),
          // NULL rather than false, as the migration leaves the codes that are no roots.
          part.map((c) => (c.root ? true : null)),
        ],
      );
      await writeSearchRows(this.client, part.map(searchRowOf));
    }
  }
}
