/**
 * What an import writes on SQLite for the navigation reads, on the import's
 * connection and inside its transaction: the system's edges and closure, and
 * the version of each code a change produced.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { replayCode, type CodeVersion } from '../../domain/history.ts';
import type { ChangeRecord } from '../../domain/records.ts';
import type { NavigationWriter } from '../navigation-store.ts';
import { closureBoundSql, closureFits, closureInsertSql } from '../sql/closure-queries.ts';

/** Ids of a system are `{system}:…`: they sort from `{system}:` up to, not including, `{system};`. */
export function systemRange(system: string): [string, string] {
  return [`${system}:`, `${system};`];
}

export class SqliteNavigationWriter implements NavigationWriter {
  private readonly db: DatabaseSync;
  private insertVersion: StatementSync | null = null;
  private closeVersion: StatementSync | null = null;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  async replaceParents(codes: readonly { id: string; parents: readonly string[] }[]): Promise<void> {
    replaceSqliteParents(this.db, codes);
  }

  async rebuildClosure(system: string, budget: number): Promise<boolean> {
    return rebuildSqliteClosure(this.db, system, budget);
  }

  async latestVersions(codeIds: readonly string[]): Promise<Map<string, string>> {
    const stmt = this.db.prepare('SELECT json FROM code_versions WHERE code_id = ? ORDER BY valid_from DESC, change_id DESC LIMIT 1');
    const found = new Map<string, string>();
    for (const id of codeIds) {
      const row = stmt.get(id) as { json: string } | undefined;
      if (row) found.set(id, row.json);
    }
    return found;
  }

  async appendVersions(versions: CodeVersion[], closePrevious: boolean): Promise<void> {
    this.insertVersion ??= this.db.prepare(
      'INSERT INTO code_versions (change_id, code_id, system, valid_from, valid_to, status, json) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.closeVersion ??= this.db.prepare('UPDATE code_versions SET valid_to = ? WHERE code_id = ? AND valid_to IS NULL');
    for (const v of versions) {
      if (closePrevious) this.closeVersion.run(v.validFrom, v.codeId);
      this.insertVersion.run(v.changeId, v.codeId, v.system, v.validFrom, v.validTo, v.status, v.json);
    }
  }

  async rebuildVersions(codeIds: readonly string[]): Promise<void> {
    const read = this.db.prepare('SELECT json FROM changes WHERE code_id = ?');
    const drop = this.db.prepare('DELETE FROM code_versions WHERE code_id = ?');
    for (const id of codeIds) {
      const changes = (read.all(id) as { json: string }[]).map((r) => JSON.parse(r.json) as ChangeRecord);
      drop.run(id);
      await this.appendVersions(replayCode(changes), false);
    }
  }
}

/** Replaces the edges of these codes with their parents (synchronous: the migrations call it too). */
export function replaceSqliteParents(db: DatabaseSync, codes: readonly { id: string; parents: readonly string[] }[]): void {
  const dropEdges = db.prepare('DELETE FROM code_edges WHERE child = ?');
  const insertEdge = db.prepare('INSERT INTO code_edges (child, parent) VALUES (?, ?) ON CONFLICT DO NOTHING');
  for (const c of codes) dropEdges.run(c.id);
  for (const c of codes) for (const parent of c.parents) insertEdge.run(c.id, parent);
}

/** The system's closure from its edges, or none when over the budget (see sql/closure-queries.ts); whether it is kept. */
export function rebuildSqliteClosure(db: DatabaseSync, system: string, budget: number): boolean {
  const [from, to] = systemRange(system);
  const p = (n: number) => `?${n}`;
  db.prepare('DELETE FROM code_closure WHERE descendant >= ? AND descendant < ?').run(from, to);
  const cap = budget + 1;
  const bound = db.prepare(closureBoundSql(p)).get(from, to, cap) as { paths: number; pairs: number };
  const kept = closureFits(Number(bound.paths), Number(bound.pairs), cap, budget);
  if (kept) db.prepare(closureInsertSql(p)).run(from, to);
  db.prepare('INSERT INTO code_hierarchies (system, closure) VALUES (?, ?) ON CONFLICT (system) DO UPDATE SET closure = excluded.closure').run(
    system,
    kept ? 1 : 0,
  );
  return kept;
}
