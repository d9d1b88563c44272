/**
 * Migration 5 on SQLite: what hierarchy and as-of reads need, built for a
 * database that already holds codes and changes. Edges come from the
 * records' parents, each system's closure is built from them as the importer does,
 * and every code's versions are replayed from its changes.
 */
import type { DatabaseSync } from 'node:sqlite';
import { closureBudget } from '../../domain/closure.ts';
import { replayCode } from '../../domain/history.ts';
import type { ChangeRecord } from '../../domain/records.ts';
import { rebuildSqliteClosure, replaceSqliteParents, SqliteNavigationWriter } from './navigation-writer.ts';
import { parseOrNull } from '../parse-or-null.ts';
import { ADDED_WITH_NAVIGATION, BEFORE_NAVIGATION, planUpgradeSqlite } from '../plan-upgrade.ts';

/** Codes whose edges are written at a time. */
const EDGE_CHUNK = 2_000;

const SCHEMA = `
  -- One row per (parent, child) edge of the parent graph.
  CREATE TABLE code_edges (
    child  TEXT NOT NULL,
    parent TEXT NOT NULL,
    PRIMARY KEY (parent, child)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX code_edges_by_child ON code_edges (child, parent);

  -- Every (ancestor, descendant) pair once, with the shortest distance.
  CREATE TABLE code_closure (
    ancestor   TEXT NOT NULL,
    descendant TEXT NOT NULL,
    depth      INTEGER NOT NULL,
    PRIMARY KEY (ancestor, descendant)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX code_closure_up ON code_closure (descendant, depth, ancestor);

  -- Systems with a hierarchy; closure 0: too large to keep, reads walk the edges.
  CREATE TABLE code_hierarchies (
    system  TEXT PRIMARY KEY,
    closure INTEGER NOT NULL
  ) STRICT;

  -- The record each change produced, valid from its date until the next version's.
  CREATE TABLE code_versions (
    change_id  INTEGER PRIMARY KEY,
    code_id    TEXT NOT NULL,
    system     TEXT NOT NULL,
    valid_from TEXT NOT NULL,
    valid_to   TEXT,
    status     TEXT NOT NULL,
    json       TEXT NOT NULL
  ) STRICT;
  CREATE INDEX code_versions_by_code ON code_versions (code_id, valid_from);
  CREATE INDEX code_versions_by_system ON code_versions (system, code_id);

  -- Codes without parents: the roots of their system.
  -- json_valid first: a damaged record must stay writable (and is no root).
  CREATE INDEX codes_roots ON codes (system, id) WHERE (CASE WHEN json_valid(json) THEN json_extract(json, '$.parents[0]') ELSE 0 END) IS NULL;
  -- GET /v1/changes?release=
  CREATE INDEX changes_by_release ON changes ((CASE WHEN json_valid(json) THEN json_extract(json, '$.release') END), effective_date, id);

`;

export function migrateNavigation(db: DatabaseSync): void {
  db.exec(SCHEMA);
  // Plans that had every endpoint get the new ones (free gains codes.hierarchy only when seeded new).
  db.exec(planUpgradeSqlite(BEFORE_NAVIGATION, ADDED_WITH_NAVIGATION));
  // Edges a chunk at a time, then each system's closure from them, as an import does.
  const sizes = new Map<string, number>();
  const withParents = new Set<string>();
  let chunk: { id: string; parents: string[] }[] = [];
  for (const { id, system, json } of db.prepare('SELECT id, system, json FROM codes').iterate() as Iterable<{ id: string; system: string; json: string }>) {
    sizes.set(system, (sizes.get(system) ?? 0) + 1);
    const parents = parseOrNull<{ parents?: unknown }>(json)?.parents;
    if (!Array.isArray(parents) || parents.length === 0) continue;
    withParents.add(system);
    chunk.push({ id, parents: parents.filter((p): p is string => typeof p === 'string') });
    if (chunk.length >= EDGE_CHUNK) {
      replaceSqliteParents(db, chunk);
      chunk = [];
    }
  }
  replaceSqliteParents(db, chunk);
  for (const system of withParents) rebuildSqliteClosure(db, system, closureBudget(sizes.get(system) ?? 0));

  const writer = new SqliteNavigationWriter(db);
  let codeId: string | null = null;
  let changes: ChangeRecord[] = [];
  const flush = () => {
    if (changes.length > 0) void writer.appendVersions(replayCode(changes), false);
    changes = [];
  };
  for (const row of db.prepare('SELECT code_id, json FROM changes ORDER BY code_id, effective_date, id').iterate() as Iterable<{
    code_id: string;
    json: string;
  }>) {
    if (row.code_id !== codeId) flush();
    codeId = row.code_id;
    const change = parseOrNull<ChangeRecord>(row.json);
    if (change) changes.push(change);
  }
  flush();
}

/**
 * Migration 9 on SQLite: the version table clustered by code, then date, then
 * change (a WITHOUT ROWID table whose key is the order the as-of reads walk).
 * An as-of list page reads the versions of 50 neighbouring codes from a few
 * neighbouring pages instead of one page per version scattered in change-id
 * order; an as-of get reads one key range. A system's versions are the range
 * of its ids (`{system}:` to `{system};`), so the index by system goes.
 */
export const CLUSTER_VERSIONS = `
  CREATE TABLE code_versions_by_code_key (
    code_id    TEXT NOT NULL,
    valid_from TEXT NOT NULL,
    change_id  INTEGER NOT NULL,
    system     TEXT NOT NULL,
    valid_to   TEXT,
    status     TEXT NOT NULL,
    json       TEXT NOT NULL,
    PRIMARY KEY (code_id, valid_from, change_id)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO code_versions_by_code_key (code_id, valid_from, change_id, system, valid_to, status, json)
    SELECT code_id, valid_from, change_id, system, valid_to, status, json FROM code_versions ORDER BY code_id, valid_from, change_id;
  DROP TABLE code_versions;
  ALTER TABLE code_versions_by_code_key RENAME TO code_versions;
`;
