/**
 * Migration 5 on PostgreSQL: what hierarchy and as-of reads need, built for a
 * database that already holds codes and changes (see the SQLite twin).
 */
import type pg from 'pg';
import { closureBudget } from '../../domain/closure.ts';
import { arrays } from './pg-client.ts';
import { parseOrNull } from '../parse-or-null.ts';
import { ADDED_WITH_NAVIGATION, BEFORE_NAVIGATION, planUpgradePostgres } from '../plan-upgrade.ts';
import { PostgresNavigationWriter, replayAll } from './navigation-writer.ts';

const SCHEMA = `
  CREATE TABLE code_edges (
    child  text COLLATE "C" NOT NULL,
    parent text COLLATE "C" NOT NULL,
    PRIMARY KEY (parent, child)
  );
  CREATE INDEX code_edges_by_child ON code_edges (child, parent);

  CREATE TABLE code_closure (
    ancestor   text COLLATE "C" NOT NULL,
    descendant text COLLATE "C" NOT NULL,
    depth      integer NOT NULL,
    PRIMARY KEY (ancestor, descendant)
  );
  CREATE INDEX code_closure_up ON code_closure (descendant, depth, ancestor);

  CREATE TABLE code_hierarchies (
    system  text COLLATE "C" PRIMARY KEY,
    closure integer NOT NULL
  );

  CREATE TABLE code_versions (
    change_id  bigint PRIMARY KEY,
    code_id    text COLLATE "C" NOT NULL,
    system     text COLLATE "C" NOT NULL,
    valid_from text COLLATE "C" NOT NULL,
    valid_to   text COLLATE "C",
    status     text NOT NULL,
    json       text NOT NULL
  );
  CREATE INDEX code_versions_by_code ON code_versions (code_id, valid_from, change_id);
  CREATE INDEX code_versions_by_system ON code_versions (system, code_id);

  -- A damaged record (JSON that does not parse) must stay writable: it is no root and has no release.
  CREATE FUNCTION codebook_is_root(record text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $f$
  BEGIN RETURN (record::json -> 'parents' -> 0) IS NULL; EXCEPTION WHEN others THEN RETURN false; END $f$;
  CREATE FUNCTION codebook_release(record text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $f$
  BEGIN RETURN record::json ->> 'release'; EXCEPTION WHEN others THEN RETURN NULL; END $f$;
  CREATE INDEX codes_roots ON codes (system, id) WHERE codebook_is_root(json);
  CREATE INDEX changes_by_release ON changes (codebook_release(json), effective_date, id);

`;

export async function migrateNavigation(client: pg.Client): Promise<void> {
  await client.query(SCHEMA);
  // Plans that had every endpoint get the new ones (free gains codes.hierarchy only when seeded new).
  await client.query(planUpgradePostgres(BEFORE_NAVIGATION, ADDED_WITH_NAVIGATION));
  const writer = new PostgresNavigationWriter(client);
  // Edges, then each system's closure from them, as an import does.
  const sizes = new Map<string, number>();
  const withParents = new Set<string>();
  const moved: { id: string; parents: string[] }[] = [];
  for (const [id, system, json] of await arrays<[string, string, string]>(client, 'SELECT id, system, json FROM codes')) {
    sizes.set(system, (sizes.get(system) ?? 0) + 1);
    const parents = parseOrNull<{ parents?: unknown }>(json)?.parents;
    if (!Array.isArray(parents) || parents.length === 0) continue;
    withParents.add(system);
    moved.push({ id, parents: parents.filter((p): p is string => typeof p === 'string') });
  }
  await writer.replaceParents(moved);
  for (const system of withParents) await writer.rebuildClosure(system, closureBudget(sizes.get(system) ?? 0));
  const changes = await arrays<[string, string]>(client, 'SELECT code_id, json FROM changes ORDER BY code_id, effective_date, id');
  await writer.appendVersions(replayAll(changes), false);
}

/**
 * Migration 9 on PostgreSQL: the roots index and the release index on columns
 * the importer writes (codes.root, changes.release), as SQLite's migration 17
 * does. The expressions were plpgsql functions with an exception block, one
 * subtransaction a call at every insert: 200 000 changes took 3.0–3.4 s with
 * the release index on the function and 1.3–1.5 s with a column
 * (bench/HISTORY.md, "2026-12-07, afternoon"). The columns hold the
 * functions' own values, so a record that does not parse is still no root and
 * has no release. The functions stay: the previous version's reads call them.
 */
export const INDEX_COLUMNS_POSTGRES = `
  -- true: a record that parses and has no parents, a root of its system; else NULL.
  ALTER TABLE codes ADD COLUMN root boolean;
  UPDATE codes SET root = true WHERE codebook_is_root(json);
  DROP INDEX codes_roots;
  CREATE INDEX codes_roots ON codes (system, id) WHERE root;

  -- The release the change was imported in; NULL for a record that does not parse.
  ALTER TABLE changes ADD COLUMN release text;
  UPDATE changes SET release = codebook_release(json);
  DROP INDEX changes_by_release;
  CREATE INDEX changes_by_release ON changes (release, effective_date, id);
`;
