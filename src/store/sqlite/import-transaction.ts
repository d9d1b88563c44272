/**
 * An import's transaction on SQLite: the reads of the stored codes the merge
 * needs and the writes of codes, changes and search rows, on the import's own
 * connection (SqliteStore.withImport), inside its IMMEDIATE transaction.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { CodeStatus } from '../../domain/records.ts';
import type { ChangeWrite, CodeWrite, ImportTransaction, StoredCode } from '../store.ts';
import { storedCodeFromRow } from '../stored-code.ts';
import { searchRowOf } from '../search-walk.ts';
import type { ReleaseWrite } from '../systems-store.ts';
import { mergeWordIndexAfter, SqliteSearchIndexer } from './search.ts';
import { SqliteReleaseTransaction } from './systems.ts';
import { SqliteNavigationWriter } from './navigation-writer.ts';

export class SqliteImportTransaction implements ImportTransaction {
  private readonly db: DatabaseSync;
  private codeById: StatementSync | null = null;
  private statesAfter: StatementSync | null = null;
  private search: SqliteSearchIndexer | null = null;
  private readonly releases: SqliteReleaseTransaction;
  readonly navigation: SqliteNavigationWriter;
  /** See SqliteStoreOptions.searchIndex. */
  private readonly indexesSearch: boolean;
  constructor(db: DatabaseSync, indexesSearch: boolean) {
    this.db = db;
    this.indexesSearch = indexesSearch;
    this.releases = new SqliteReleaseTransaction(db);
    this.navigation = new SqliteNavigationWriter(db);
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
    const map = new Map<string, { hash: string; status: CodeStatus }>();
    const stmt = this.db.prepare('SELECT id, hash, status FROM codes WHERE system = ?');
    for (const row of stmt.iterate(system) as Iterable<{ id: string; hash: string; status: CodeStatus }>) {
      map.set(row.id, { hash: row.hash, status: row.status });
    }
    return map;
  }

  async codeStatesAfter(system: string, after: string, limit: number): Promise<[string, string, CodeStatus][]> {
    this.statesAfter ??= this.db.prepare('SELECT id, hash, status FROM codes INDEXED BY codes_by_system WHERE system = ? AND id > ? ORDER BY id LIMIT ?');
    this.statesAfter.setReturnArrays(true);
    return this.statesAfter.all(system, after, limit) as unknown as [string, string, CodeStatus][];
  }

  async codesById(ids: string[]): Promise<StoredCode[]> {
    // Kept for the transaction: a walk up a deep hierarchy asks for one id at a time.
    this.codeById ??= this.db.prepare('SELECT id, json FROM codes WHERE id = ?');
    const out: StoredCode[] = [];
    for (const id of ids) {
      const row = this.codeById.get(id) as { id: string; json: string } | undefined;
      if (row) out.push(storedCodeFromRow(row.id, row.json));
    }
    return out;
  }

  async latestEffectiveDate(system: string | null): Promise<string | null> {
    const row = (
      system === null
        ? this.db.prepare('SELECT max(effective_date) AS latest FROM changes').get()
        : this.db.prepare('SELECT max(effective_date) AS latest FROM changes WHERE system = ?').get(system)
    ) as { latest: string | null };
    return row.latest;
  }

  async nextChangeId(): Promise<number> {
    return Number((this.db.prepare('SELECT coalesce(max(id), 0) + 1 AS next FROM changes').get() as { next: number }).next);
  }

  async writeChanges(changes: ChangeWrite[]): Promise<void> {
    const stmt = this.db.prepare('INSERT INTO changes (id, code_id, system, type, effective_date, release, json) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const c of changes) stmt.run(c.id, c.codeId, c.system, c.type, c.effectiveDate, c.release, c.json);
  }

  /**
   * The codes the import must add are at least the file's rows less the
   * system's stored codes (each row either matches a stored code or adds
   * one); the systems table counts those in the same transactions that write
   * them. The search indexer drops its folded-display index now when that is
   * enough to rebuild it, rather than after REBUILD_AFTER random inserts.
   */
  async expectCodes(system: string, fileRows: number): Promise<void> {
    if (!this.indexesSearch) return;
    const row = this.db.prepare('SELECT active + deprecated + retired AS n FROM systems WHERE id = ?').get(system) as { n: number } | undefined;
    this.searchIndexer().expectAdded(fileRows - Number(row?.n ?? 0));
  }

  /** The transaction's search indexer, made by the first call that needs it. */
  private searchIndexer(): SqliteSearchIndexer {
    return (this.search ??= new SqliteSearchIndexer(this.db));
  }

  async writeCodes(codes: CodeWrite[]): Promise<void> {
    const stmt = this.db.prepare(
      `INSERT INTO codes (id, system, code, status, hash, json, root) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, hash = excluded.hash, json = excluded.json, root = excluded.root`,
    );
    for (const c of codes) stmt.run(c.id, c.system, c.code, c.status, c.hash, c.json, c.root ? 1 : null);
    if (!this.indexesSearch) return;
    this.searchIndexer().writeMany(
      codes.map(searchRowOf),
      codes.map((c) => c.isNew === true),
    );
  }

  /** Before the commit: what the search indexer left for the end (see SqliteSearchIndexer.finish), and the word index's merge when it is due. */
  finish(): void {
    if (this.search === null) return;
    this.search.finish();
    mergeWordIndexAfter(this.db, this.search.revised);
  }
}
