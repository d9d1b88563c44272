/** Systems and releases on SQLite: the tables, their reads, and what an import records. */
import type { DatabaseSync } from 'node:sqlite';
import { SqliteStatements } from './statements.ts';
import {
  RELEASE_COLUMNS,
  RELEASE_WRITE_COLUMNS,
  releaseWriteValues,
  releaseFromRow,
  SYSTEM_COLUMNS,
  SYSTEM_FIELDS,
  systemFromRow,
  type ReleaseInfo,
  type ReleaseTransaction,
  type ReleaseWrite,
  type SystemFields,
  type SystemInfo,
  type SystemsStore,
} from '../systems-store.ts';

/**
 * The tables, and their rows built from what an existing database holds: a
 * release per system and release name of its changes (its mode cannot be
 * told any more: recorded as delta), a system per system of its codes.
 */
export const SQLITE_SYSTEMS_SCHEMA = `
  CREATE TABLE systems (
    id                    TEXT PRIMARY KEY,
    name                  TEXT NOT NULL,
    description           TEXT,
    url                   TEXT,
    publisher             TEXT,
    license               TEXT,
    active                INTEGER NOT NULL,
    deprecated            INTEGER NOT NULL,
    retired               INTEGER NOT NULL,
    latest_release        TEXT,
    latest_effective_date TEXT,
    updated_at            TEXT NOT NULL
  ) STRICT;

  -- seq: import order.
  CREATE TABLE releases (
    seq             INTEGER PRIMARY KEY,
    system          TEXT NOT NULL,
    name            TEXT NOT NULL,
    effective_date  TEXT NOT NULL,
    mode            TEXT NOT NULL,
    imported_at     TEXT NOT NULL,
    added           INTEGER NOT NULL,
    revised         INTEGER NOT NULL,
    retired         INTEGER NOT NULL,
    reactivated     INTEGER NOT NULL,
    first_change_id INTEGER,
    last_change_id  INTEGER,
    UNIQUE (system, name)
  ) STRICT;
  CREATE INDEX releases_by_system ON releases (system, seq);

  INSERT INTO releases (system, name, effective_date, mode, imported_at, added, revised, retired, reactivated, first_change_id, last_change_id)
  SELECT system, json_extract(json, '$.release') AS release_name, min(effective_date), 'delta', min(json_extract(json, '$.recorded_at')),
         sum(type = 'added'), sum(type = 'revised'), sum(type = 'retired'), sum(type = 'reactivated'), min(id), max(id)
    FROM changes GROUP BY system, release_name ORDER BY min(id);

  INSERT INTO systems (id, name, active, deprecated, retired, latest_release, latest_effective_date, updated_at)
  SELECT system, system, sum(status = 'active'), sum(status = 'deprecated'), sum(status = 'retired'),
         (SELECT name FROM releases r WHERE r.system = c.system ORDER BY seq DESC LIMIT 1),
         (SELECT max(effective_date) FROM releases r WHERE r.system = c.system),
         strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM codes c GROUP BY system;
`;

export class SqliteSystemsStore extends SqliteStatements implements SystemsStore {
  async pageSystems(after: string | null, limit: number): Promise<SystemInfo[]> {
    const found = this.stmt(`SELECT ${SYSTEM_COLUMNS} FROM systems WHERE id > ? ORDER BY id LIMIT ?`).all(after ?? '', limit);
    return found.map((r) => systemFromRow(r as Record<string, unknown>));
  }

  async getSystem(id: string): Promise<SystemInfo | null> {
    const r = this.stmt(`SELECT ${SYSTEM_COLUMNS} FROM systems WHERE id = ?`).get(id);
    return r ? systemFromRow(r) : null;
  }

  async pageReleases(system: string, afterSeq: number | null, limit: number): Promise<ReleaseInfo[]> {
    const found = this.stmt(`SELECT ${RELEASE_COLUMNS} FROM releases WHERE system = ? AND seq > ? ORDER BY seq LIMIT ?`).all(system, afterSeq ?? 0, limit);
    return found.map((r) => releaseFromRow(r as Record<string, unknown>));
  }

  async updateSystem(id: string, fields: SystemFields & { name?: string }, now: string): Promise<SystemInfo | null> {
    const names = SYSTEM_FIELDS.filter((name) => fields[name] !== undefined);
    const sets = [...names.map((name) => `${name} = ?`), 'updated_at = ?'];
    await this.write(`UPDATE systems SET ${sets.join(', ')} WHERE id = ?`, ...names.map((name) => fields[name]!), now, id);
    return this.getSystem(id);
  }
}

export class SqliteReleaseTransaction implements ReleaseTransaction {
  private readonly db: DatabaseSync;
  constructor(db: DatabaseSync) {
    this.db = db;
  }

  async releaseExists(system: string, name: string): Promise<boolean> {
    return this.db.prepare('SELECT 1 AS one FROM releases WHERE system = ? AND name = ?').get(system, name) !== undefined;
  }

  async latestReleaseDate(system: string): Promise<string | null> {
    const row = this.db.prepare('SELECT latest_effective_date AS latest FROM systems WHERE id = ?').get(system) as { latest: string | null } | undefined;
    return row?.latest ?? null;
  }

  async recordRelease(r: ReleaseWrite): Promise<void> {
    this.db.prepare(`INSERT INTO releases (${RELEASE_WRITE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...releaseWriteValues(r));
    const c = r.codeCounts;
    this.db
      .prepare(
        `INSERT INTO systems (id, name, active, deprecated, retired, latest_release, latest_effective_date, updated_at)
       VALUES ($id, $id, $active, $deprecated, $retired, $release, $date, $now)
       ON CONFLICT (id) DO UPDATE SET active = $active, deprecated = $deprecated, retired = $retired, latest_release = $release,
         latest_effective_date = max(coalesce(latest_effective_date, ''), $date), updated_at = $now`,
      )
      .run({ id: r.system, active: c.active, deprecated: c.deprecated, retired: c.retired, release: r.id, date: r.effectiveDate, now: r.importedAt });
  }
}
