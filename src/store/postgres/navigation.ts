/**
 * Navigation reads on PostgreSQL: hierarchy pages from the closure table (or a
 * walk of the edges when a system's closure is not kept), as-of reads from the
 * version table, and batch lookups in one statement.
 */
import type pg from 'pg';
import type { CodeRecord, CodeStatus } from '../../domain/records.ts';
import { walkAncestors, walkDescendants } from '../hierarchy-walk.ts';
import type { AncestorKey, AncestorsQuery, AsOfPageQuery, BatchRecords, NavigationStore, RelativesQuery, RootsQuery } from '../navigation-store.ts';
import { batchRecords } from '../batch-records.ts';
import { toRawPage } from '../sql/raw-page.ts';
import type { RawPage } from '../../domain/pages.ts';
import { jsonText, type JsonText } from '../../domain/json-text.ts';
import { arrays, type Value } from './pg-client.ts';

const systemOf = (id: string) => id.slice(0, Math.max(0, id.indexOf(':')));

/** The latest version on or before the date; versions of one date are ordered by change id. */
const AS_OF_ONE = (id: string, date: string) =>
  `SELECT json FROM code_versions WHERE code_id = ${id} AND valid_from <= ${date} ORDER BY valid_from DESC, change_id DESC LIMIT 1`;

export class PostgresNavigation implements NavigationStore {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /**
   * False when the system's closure was too large to keep: its reads walk the
   * edges. Asked only when the closure gave no row (closure rows exist only
   * for kept systems), so a hierarchy page is one round trip, not two.
   */
  private async closureKept(id: string): Promise<boolean> {
    const [row] = await arrays<[number]>(this.pool, 'SELECT closure FROM code_hierarchies WHERE system = $1', [systemOf(id)]);
    return row === undefined || Number(row[0]) === 1;
  }

  private async page(sql: string, values: Value[], limit: number): Promise<RawPage<string, CodeRecord>> {
    return toRawPage<CodeRecord, [string, string], string>(await arrays<[string, string]>(this.pool, sql, values), limit, 1, (row) => row[0]);
  }

  async pageChildren(q: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
    const values: Value[] = [q.id, q.after ?? '', q.limit + 1];
    const status = q.status !== null ? `AND c.status = $${values.push(q.status)}` : '';
    return this.page(
      `SELECT c.id, c.json FROM code_edges e JOIN codes c ON c.id = e.child
      WHERE e.parent = $1 AND e.child > $2 ${status} ORDER BY e.child LIMIT $3`,
      values,
      q.limit,
    );
  }

  async pageDescendants(q: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
    const values: Value[] = [q.id, q.after ?? '', q.limit + 1];
    const status = q.status !== null ? `AND c.status = $${values.push(q.status)}` : '';
    const page = await this.page(
      `SELECT c.id, c.json FROM code_closure k JOIN codes c ON c.id = k.descendant
      WHERE k.ancestor = $1 AND k.descendant > $2 ${status} ORDER BY k.descendant LIMIT $3`,
      values,
      q.limit,
    );
    if (page.count > 0 || (await this.closureKept(q.id))) return page;
    return walkDescendants(
      q.id,
      q.after,
      q.limit,
      q.status,
      (ids) => this.step('SELECT child FROM code_edges WHERE parent = ANY($1::text[])', ids),
      (ids) => this.fetch(ids),
    );
  }

  /** PostgreSQL reads the row value (depth, ancestor) > (d, a) as one index range. */
  async pageAncestors(q: AncestorsQuery): Promise<RawPage<AncestorKey, CodeRecord>> {
    const values: Value[] = [q.id, q.limit + 1];
    const where = ['k.descendant = $1'];
    if (q.after !== null) where.push(`(k.depth, k.ancestor) > ($${values.push(q.after.distance)}::integer, $${values.push(q.after.id)})`);
    if (q.status !== null) where.push(`c.status = $${values.push(q.status)}`);
    const found = await arrays<[number, string, string]>(
      this.pool,
      `SELECT k.depth, c.id, c.json FROM code_closure k JOIN codes c ON c.id = k.ancestor
      WHERE ${where.join(' AND ')} ORDER BY k.depth, k.ancestor LIMIT $2`,
      values,
    );
    if (found.length > 0 || (await this.closureKept(q.id)))
      return toRawPage<CodeRecord, [number, string, string], AncestorKey>(found, q.limit, 2, (row) => ({ distance: Number(row[0]), id: row[1] }));
    return walkAncestors(
      q.id,
      q.after,
      q.limit,
      q.status,
      (ids) => this.step('SELECT parent FROM code_edges WHERE child = ANY($1::text[])', ids),
      (ids) => this.fetch(ids),
    );
  }

  async pageRoots(q: RootsQuery): Promise<RawPage<string, CodeRecord>> {
    const values: Value[] = [q.system, q.after ?? '', q.limit + 1];
    const status = q.status !== null ? `AND status = $${values.push(q.status)}` : '';
    return this.page(
      `SELECT id, json FROM codes WHERE system = $1 AND id > $2 AND root
      ${status} ORDER BY id LIMIT $3`,
      values,
      q.limit,
    );
  }

  async systemExists(system: string): Promise<boolean> {
    return (await arrays(this.pool, 'SELECT 1 FROM codes WHERE system = $1 LIMIT 1', [system])).length > 0;
  }

  async codeJsonAsOf(id: string, asOf: string): Promise<JsonText<CodeRecord> | null> {
    const [row] = await arrays<[string]>(this.pool, AS_OF_ONE('$1', '$2'), [id, asOf]);
    return row ? jsonText<CodeRecord>(row[0]) : null;
  }

  async pageCodesAsOf(q: AsOfPageQuery): Promise<RawPage<string, CodeRecord>> {
    const values: Value[] = [q.asOf, q.after ?? '', q.limit + 1];
    const where = ['code_id > $2', 'valid_from <= $1', '(valid_to IS NULL OR valid_to > $1)'];
    if (q.system !== null) where.push(`system = $${values.push(q.system)}`);
    if (q.status !== null) where.push(`status = $${values.push(q.status)}`);
    return this.page(`SELECT code_id, json FROM code_versions WHERE ${where.join(' AND ')} ORDER BY code_id LIMIT $3`, values, q.limit);
  }

  async codesBatch(ids: readonly string[], asOf: string | null): Promise<BatchRecords> {
    const found =
      asOf === null
        ? await arrays<[string, string | null]>(this.pool, 'SELECT id, json FROM codes WHERE id = ANY($1::text[])', [[...ids]])
        : await arrays<[string, string | null]>(this.pool, `SELECT j.id, (${AS_OF_ONE('j.id', '$2')}) FROM unnest($1::text[]) AS j(id)`, [[...ids], asOf]);
    const byId = new Map(found);
    return batchRecords(ids, (i) => byId.get(ids[i]!));
  }

  private async step(sql: string, ids: string[]): Promise<string[]> {
    return (await arrays<[string]>(this.pool, sql, [ids])).map((r) => r[0]);
  }

  private async fetch(ids: string[]): Promise<Map<string, [CodeStatus, string]>> {
    const found = await arrays<[string, CodeStatus, string]>(this.pool, 'SELECT id, status, json FROM codes WHERE id = ANY($1::text[])', [ids]);
    return new Map(found.map(([id, status, json]) => [id, [status, json]]));
  }
}
