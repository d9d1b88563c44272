/**
 * Navigation reads on SQLite: hierarchy pages from the closure table (or a
 * walk of the edges when a system's closure is not kept), as-of reads from the
 * version table, and batch lookups in one statement.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { CodeRecord, CodeStatus } from '../../domain/records.ts';
import { walkAncestors, walkDescendants } from '../hierarchy-walk.ts';
import type { AncestorKey, AncestorsQuery, AsOfPageQuery, BatchRecords, NavigationStore, RelativesQuery, RootsQuery } from '../navigation-store.ts';
import { toRawPage } from '../sql/raw-page.ts';
import type { RawPage } from '../../domain/pages.ts';
import { jsonText, type JsonText } from '../../domain/json-text.ts';
import { SqliteStatements } from './statements.ts';
import { systemRange } from './navigation-writer.ts';
import { AS_OF_ONE, batchReader } from './batch-read.ts';
import type { BatchReader } from './batch-reader.ts';

type Params = Record<string, string | number>;

const systemOf = (id: string) => id.slice(0, Math.max(0, id.indexOf(':')));

/** Systems whose flag is remembered at once: ids of unknown systems must not grow the map. */
const MAX_KEPT_SYSTEMS = 1_000;

export class SqliteNavigation extends SqliteStatements implements NavigationStore {
  /** The data version the kept flags were read at (see SqliteStore.externalWriteVersion). */
  private readonly version: () => number;
  private keptAt = Number.NaN;
  private readonly kept = new Map<string, boolean>();

  private readonly reader: BatchReader | null;
  private readonly readBatch: ReturnType<typeof batchReader>;

  /** reader: the thread batches of reader.minIds ids or more are read on; null reads every batch here. */
  constructor(db: DatabaseSync, version: () => number, reader: BatchReader | null = null) {
    super(db);
    this.version = version;
    this.reader = reader;
    this.readBatch = batchReader(db);
  }

  /**
   * False when the system's closure was too large to keep: its reads walk the
   * edges. Only an import changes it, and every import changes the data
   * version, so the answer is kept until then: under load the statement cost a
   * quarter of an ancestors page's SQL (its pages fall out of SQLite's cache).
   */
  private closureKept(id: string): boolean {
    const version = this.version();
    if (version !== this.keptAt) {
      this.kept.clear();
      this.keptAt = version;
    }
    const system = systemOf(id);
    let kept = this.kept.get(system);
    if (kept === undefined) {
      const row = this.stmt('SELECT closure FROM code_hierarchies WHERE system = ?').get(system) as { closure: number } | undefined;
      kept = row === undefined || row.closure === 1;
      if (this.kept.size < MAX_KEPT_SYSTEMS) this.kept.set(system, kept);
    }
    return kept;
  }

  private page(sql: string, params: Params, limit: number): RawPage<string, CodeRecord> {
    const rows = this.arrays(sql).all(params) as unknown as [string, string][];
    return toRawPage<CodeRecord, [string, string], string>(rows, limit, 1, (row) => row[0]);
  }

  async pageChildren(q: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
    const params: Params = { id: q.id, after: q.after ?? '', limit: q.limit + 1 };
    if (q.status !== null) params.status = q.status;
    const sql = `SELECT c.id, c.json FROM code_edges e JOIN codes c ON c.id = e.child
      WHERE e.parent = $id AND e.child > $after ${q.status !== null ? 'AND c.status = $status' : ''} ORDER BY e.child LIMIT $limit`;
    return this.page(sql, params, q.limit);
  }

  async pageDescendants(q: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
    if (!this.closureKept(q.id))
      return walkDescendants(
        q.id,
        q.after,
        q.limit,
        q.status,
        (ids) => this.step('SELECT child FROM code_edges WHERE parent IN (SELECT value FROM json_each(?))', ids),
        (ids) => this.fetch(ids),
      );
    const params: Params = { id: q.id, after: q.after ?? '', limit: q.limit + 1 };
    if (q.status !== null) params.status = q.status;
    const sql = `SELECT c.id, c.json FROM code_closure k JOIN codes c ON c.id = k.descendant
      WHERE k.ancestor = $id AND k.descendant > $after ${q.status !== null ? 'AND c.status = $status' : ''} ORDER BY k.descendant LIMIT $limit`;
    return this.page(sql, params, q.limit);
  }

  /**
   * The keyset (depth, ancestor) > (d, a) is two index ranges, as for changes
   * (see SqliteStore.pageChanges): "same depth, larger id", then "deeper".
   */
  async pageAncestors(q: AncestorsQuery): Promise<RawPage<AncestorKey, CodeRecord>> {
    if (!this.closureKept(q.id))
      return walkAncestors(
        q.id,
        q.after,
        q.limit,
        q.status,
        (ids) => this.step('SELECT parent FROM code_edges WHERE child IN (SELECT value FROM json_each(?))', ids),
        (ids) => this.fetch(ids),
      );
    const params: Params = { id: q.id, limit: q.limit + 1 };
    const status = q.status !== null ? 'AND c.status = $status' : '';
    if (q.status !== null) params.status = q.status;
    const select = (extra: string, order: string) =>
      `SELECT k.depth, c.id, c.json FROM code_closure k JOIN codes c ON c.id = k.ancestor
       WHERE k.descendant = $id ${extra} ${status} ORDER BY ${order} LIMIT $limit`;
    let sql: string;
    if (q.after === null) {
      sql = select('', 'k.depth, k.ancestor');
    } else {
      params.depth = q.after.distance;
      params.after = q.after.id;
      sql = `SELECT * FROM (${select('AND k.depth = $depth AND k.ancestor > $after', 'k.ancestor')})
        UNION ALL SELECT * FROM (${select('AND k.depth > $depth', 'k.depth, k.ancestor')}) LIMIT $limit`;
    }
    const rows = this.arrays(sql).all(params) as unknown as [number, string, string][];
    return toRawPage<CodeRecord, [number, string, string], AncestorKey>(rows, q.limit, 2, (row) => ({ distance: Number(row[0]), id: row[1] }));
  }

  /** The partial index holds exactly the codes without parents: a system of 100 000 codes and ten roots reads ten entries. */
  async pageRoots(q: RootsQuery): Promise<RawPage<string, CodeRecord>> {
    const params: Params = { system: q.system, after: q.after ?? '', limit: q.limit + 1 };
    if (q.status !== null) params.status = q.status;
    const sql = `SELECT id, json FROM codes INDEXED BY codes_roots
      WHERE system = $system AND id > $after AND root = 1
      ${q.status !== null ? 'AND status = $status' : ''} ORDER BY id LIMIT $limit`;
    return this.page(sql, params, q.limit);
  }

  async systemExists(system: string): Promise<boolean> {
    return this.stmt('SELECT 1 AS one FROM codes WHERE system = ? LIMIT 1').get(system) !== undefined;
  }

  async codeJsonAsOf(id: string, asOf: string): Promise<JsonText<CodeRecord> | null> {
    const row = this.stmt(AS_OF_ONE).get(id, asOf) as { json: string } | undefined;
    return row === undefined ? null : jsonText<CodeRecord>(row.json);
  }

  async pageCodesAsOf(q: AsOfPageQuery): Promise<RawPage<string, CodeRecord>> {
    const params: Params = { asOf: q.asOf, after: q.after ?? '', limit: q.limit + 1 };
    const where = ['code_id > $after', 'valid_from <= $asOf', '(valid_to IS NULL OR valid_to > $asOf)'];
    // A system's versions are the key range of its ids: one walk of the clustered table.
    if (q.system !== null) {
      const [from, to] = systemRange(q.system);
      where[0] = 'code_id > max($after, $from)';
      where.push('code_id < $to', 'system = $system');
      Object.assign(params, { from, to, system: q.system });
    }
    if (q.status !== null) {
      where.push('status = $status');
      params.status = q.status;
    }
    return this.page(`SELECT code_id, json FROM code_versions WHERE ${where.join(' AND ')} ORDER BY code_id LIMIT $limit`, params, q.limit);
  }

  /**
   * The whole batch in one statement: on the reader thread when there is one
   * and the batch is worth the trip. Whatever the thread could not answer (it
   * died, or the statement failed there) is read here: the answer, or the
   * error, is the event loop's own.
   */
  async codesBatch(ids: readonly string[], asOf: string | null): Promise<BatchRecords> {
    const reader = this.reader;
    if (reader === null || ids.length < reader.minIds) return this.readBatch(ids, asOf);
    try {
      return await reader.read(ids, asOf, this.version());
    } catch {
      return this.readBatch(ids, asOf);
    }
  }

  private async step(sql: string, ids: string[]): Promise<string[]> {
    return (this.arrays(sql).all(JSON.stringify(ids)) as unknown as [string][]).map((r) => r[0]);
  }

  private async fetch(ids: string[]): Promise<Map<string, [CodeStatus, string]>> {
    const rows = this.arrays('SELECT id, status, json FROM codes WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as unknown as [
      string,
      CodeStatus,
      string,
    ][];
    return new Map(rows.map(([id, status, json]) => [id, [status, json]]));
  }
}
