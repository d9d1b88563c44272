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

  -- Codes without parents: the roots of their system (on a column since migration 17, INDEX_COLUMNS).
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

/**
 * Migration 17 on SQLite: the roots index and the release index on columns the
 * importer writes (codes.root, changes.release), instead of on expressions over
 * the record's JSON. SQLite evaluated those expressions, and so parsed the JSON,
 * at every insert of a code and of a change: 3 µs of the ~9 µs each took in a
 * snapshot's import (bench/HISTORY.md, "2026-12-07, afternoon"). The values match
 * what the expressions matched: a damaged record is still no root and has no release.
 * Only the roots are rewritten in codes (the old partial index lists them); every
 * change is, once.
 */
export const INDEX_COLUMNS = `
  -- 1: a record that parses and has no parents, a root of its system; else NULL.
  ALTER TABLE codes ADD COLUMN root INTEGER;
  UPDATE codes SET root = 1 WHERE id IN (SELECT id FROM codes INDEXED BY codes_roots
    WHERE (CASE WHEN json_valid(json) THEN json_extract(json, '$.parents[0]') ELSE 0 END) IS NULL);
  DROP INDEX codes_roots;
  CREATE INDEX codes_roots ON codes (system, id) WHERE root = 1;

  DROP INDEX changes_by_release;
  -- The release the change was imported in; NULL for a record that does not parse. A release that is
  -- not text stays NULL: the old expression gave it as a number, which no text parameter equalled.
  ALTER TABLE changes ADD COLUMN release TEXT;
  UPDATE changes SET release = CASE WHEN json_valid(json) THEN
    CASE WHEN json_type(json, '$.release') IN ('text', 'array', 'object') THEN json_extract(json, '$.release') END END;
  CREATE INDEX changes_by_release ON changes (release, effective_date, id);
`;
