/**
 * The rows of an import file, staged on disk so that an import of any size
 * runs in bounded memory: a scratch SQLite file of its own (whatever the
 * store's backend), which sorts the rows by id for the merge with the stored
 * codes, finds codes that appear twice, and numbers the rows and their parent
 * edges for the graph checks. It is written without a journal and only ever
 * holds a copy of the file, so its name is removed as soon as it is open: the
 * file lives as long as the process holds it, and an import stopped in any way,
 * kill -9 included, leaves nothing behind in the temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { CodeContent, CodeStatus } from '../../domain/records.ts';
import { canonicalText, contentOfCanonical, hashOfCanonical } from './diff.ts';
import { MAX_ERRORS, type ImportRow, type ListedErrors, type RowError } from './parse.ts';

/** Rows per insert transaction of the stage. */
const BATCH = 5_000;
/** Rows per insert statement: one statement a row cost an import ~15 % of its time in calls. */
const ROWS_PER_INSERT = 64;
/** Parent edges per insert statement, for the same reason (one a statement: ~8 % of the rows' staging). */
const EDGES_PER_INSERT = 128;
/** Page cache of the stage: the sort and the index builds spill to disk beyond it. */
const CACHE_KIB = 32 * 1024;

/** A staged row as the merge reads it, in id order; its content is read by rank when it is written. */
export interface StagedRow {
  rank: number;
  id: string;
  line: number;
  hash: string;
  status: CodeStatus;
  /** Has at least one parent. */
  hasParents: boolean;
}

/** A staged row's content, parents named by id. */
export interface StagedContent extends CodeContent {
  code: string;
  line: number;
}

export class ImportStage {
  readonly rows: number = 0;
  readonly edges: number = 0;
  private readonly dir: string;
  private readonly db: DatabaseSync;
  private readonly prefix: string;
  private readonly insertRows: BatchedInsert;
  private readonly insertEdges: BatchedInsert;
  private pending = 0;
  private readonly statements = new Map<string, StatementSync>();

  constructor(system: string) {
    this.dir = mkdtempSync(join(tmpdir(), 'codebook-import-'));
    this.db = new DatabaseSync(join(this.dir, 'stage.db'));
    this.prefix = `${system}:`;
    this.db.exec(
      `PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -${CACHE_KIB}; PRAGMA temp_store = FILE; PRAGMA locking_mode = EXCLUSIVE`,
    );
    this.db.exec(`
      -- canonical: the content's canonical text (diff.ts), which gives the row's content back.
      CREATE TABLE rows (rank INTEGER PRIMARY KEY, id TEXT NOT NULL, line INTEGER NOT NULL, hash TEXT NOT NULL, status TEXT NOT NULL, parents INTEGER NOT NULL, canonical TEXT NOT NULL);
      CREATE TABLE edges (child INTEGER NOT NULL, parent TEXT NOT NULL, line INTEGER NOT NULL);
    `);
    // The file exists and this connection holds it (no journal, an exclusive lock): nothing opens it by its name again.
    // Where a system refuses to remove an open file, close() does.
    removeScratch(this.dir);
    this.insertRows = new BatchedInsert(this.db, 'rows', ['rank', 'id', 'line', 'hash', 'status', 'parents', 'canonical'], ROWS_PER_INSERT);
    this.insertEdges = new BatchedInsert(this.db, 'edges', ['child', 'parent', 'line'], EDGES_PER_INSERT);
  }

  /** Stages one valid row of the file; parents are turned into ids. */
  add(row: ImportRow): void {
    if (this.pending === 0) this.db.exec('BEGIN');
    const rank = this.rows;
    const parents = row.parents.map((parent) => this.prefix + parent);
    const text = canonicalText({ ...row, parents });
    this.insertRows.add(rank, this.prefix + row.code, row.line, hashOfCanonical(text), row.status, parents.length > 0 ? 1 : 0, text);
    for (const parent of parents) this.insertEdges.add(rank, parent, row.line);
    (this as { rows: number }).rows++;
    (this as { edges: number }).edges += parents.length;
    if (++this.pending >= BATCH) this.flush();
  }

  private flush(): void {
    this.insertRows.flush();
    this.insertEdges.flush();
    if (this.pending > 0) this.db.exec('COMMIT');
    this.pending = 0;
  }

  /** Once every row is staged: sorts them by id and returns the codes that appear again, with their lines. */
  finish(): ListedErrors {
    this.flush();
    this.db.exec('CREATE INDEX rows_by_id ON rows (id, line, hash, status, parents, rank)');
    const errors: RowError[] = [];
    const twice = this.db.prepare('SELECT id, min(line) AS first FROM rows GROUP BY id HAVING count(*) > 1');
    const again = this.db.prepare('SELECT line FROM rows WHERE id = ? AND line > ? ORDER BY line');
    for (const { id, first } of twice.iterate() as Iterable<{ id: string; first: number }>) {
      for (const { line } of again.all(id, first) as { line: number }[]) {
        if (errors.length === MAX_ERRORS) return { errors, more: true };
        errors.push({ line, message: `code ${id.slice(this.prefix.length)} appears again (first on line ${first})` });
      }
    }
    return { errors, more: false };
  }

  /** Every row in id order (binary, the order codes are paged in). */
  *sorted(): Generator<StagedRow> {
    const stmt = this.db.prepare('SELECT rank, id, line, hash, status, parents FROM rows INDEXED BY rows_by_id ORDER BY id');
    stmt.setReturnArrays(true);
    for (const r of stmt.iterate() as Iterable<[number, string, number, string, CodeStatus, number]>) {
      yield { rank: r[0], id: r[1], line: r[2], hash: r[3], status: r[4], hasParents: r[5] === 1 };
    }
  }

  /** The content of the rows of these ranks, read in one statement (a statement a rank cost a snapshot import 4 %). */
  contents(ranks: readonly number[]): Map<number, StagedContent> {
    const found = new Map<number, StagedContent>();
    if (ranks.length === 0) return found;
    const stmt = this.stmt('SELECT rows.rank, rows.id, rows.line, rows.canonical FROM json_each(?) j CROSS JOIN rows ON rows.rank = j.value');
    stmt.setReturnArrays(true);
    for (const [rank, id, line, canonical] of stmt.all(JSON.stringify(ranks)) as unknown as [number, string, number, string][]) {
      found.set(Number(rank), { ...contentOfCanonical(canonical), code: id.slice(this.prefix.length), line: Number(line) });
    }
    return found;
  }

  /** The rank of the row with this id, if the file has one. */
  rankOf(id: string): number | undefined {
    const row = this.stmt('SELECT rank FROM rows INDEXED BY rows_by_id WHERE id = ? LIMIT 1').get(id) as { rank: number } | undefined;
    return row?.rank;
  }

  /** The id and line of a row. */
  rowAt(rank: number): { id: string; line: number } {
    return this.stmt('SELECT id, line FROM rows WHERE rank = ?').get(rank) as { id: string; line: number };
  }

  /** Edges in row order: [child rank, parent rank or -1 when the parent is not in the file, parent id, line]. */
  *edgeList(): Generator<[number, number, string, number]> {
    const stmt = this.db.prepare(
      'SELECT e.child, coalesce((SELECT r.rank FROM rows r INDEXED BY rows_by_id WHERE r.id = e.parent LIMIT 1), -1), e.parent, e.line FROM edges e ORDER BY e.rowid',
    );
    stmt.setReturnArrays(true);
    yield* stmt.iterate() as Iterable<[number, number, string, number]>;
  }

  private stmt(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
    removeScratch(this.dir);
  }
}

function removeScratch(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Still open elsewhere (Windows): close() removes it.
  }
}

/** Inserts into one table of the stage, perStatement rows a statement; flush() inserts what is left, a row a statement. */
class BatchedInsert {
  private readonly one: StatementSync;
  private readonly many: StatementSync;
  private readonly columns: number;
  private readonly perStatement: number;
  private readonly values: SQLInputValue[] = [];

  constructor(db: DatabaseSync, table: string, columns: readonly string[], perStatement: number) {
    const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
    const row = `(${columns.map(() => '?').join(', ')})`;
    this.one = db.prepare(insert + row);
    this.many = db.prepare(insert + Array.from({ length: perStatement }, () => row).join(', '));
    this.columns = columns.length;
    this.perStatement = perStatement;
  }

  add(...row: SQLInputValue[]): void {
    this.values.push(...row);
    if (this.values.length === this.perStatement * this.columns) {
      this.many.run(...this.values);
      this.values.length = 0;
    }
  }

  flush(): void {
    for (let i = 0; i < this.values.length; i += this.columns) this.one.run(...this.values.slice(i, i + this.columns));
    this.values.length = 0;
  }
}
