/**
 * A database as an earlier release left it, on either backend: the first
 * `version` migrations applied, then the given rows written straight into
 * their tables, then the current store opened on it (which runs the newer
 * migrations). What the migration tests start from.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import pg from 'pg';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { attachActivity, copyIntoActivity } from '../../src/store/sqlite/activity.ts';
import { ACTIVITY_MOVE, SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from './context.ts';
import type { TestDatabase } from './postgres.ts';

type Value = string | number | boolean | null;
/** Rows by table, in the order to insert them; each row's keys are its columns. */
export type OldRows = [table: string, rows: Record<string, Value>[]][];

/** Plans as an old database held them: name and endpoints, 60 a minute, no monthly quota, test keys allowed. */
export function oldPlans(plans: [string, string[]][]): Record<string, Value>[] {
  return plans.map(([name, endpoints]) => ({
    name,
    endpoints: JSON.stringify(endpoints),
    rate_per_minute: 60,
    monthly_quota: null,
    test_keys_allowed: true,
  }));
}

/** Codes as an old database's codes table held them: the columns of the table, none of the newer fields. */
export function oldCodes(codes: { id: string; system: string; code: string; status: string; hash: string; json: string }[]): Record<string, Value>[] {
  return codes.map((c) => ({ id: c.id, system: c.system, code: c.code, status: c.status, hash: c.hash, json: c.json }));
}

function insertSql(table: string, row: Record<string, Value>, placeholder: (i: number) => string): string {
  const columns = Object.keys(row);
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => placeholder(i)).join(', ')})`;
}

/**
 * check runs on the store opened (and so migrated) over the old file; everything is removed afterwards.
 * fill, when given, writes with that version's code after the rows (what the importer of the day wrote beside them).
 */
export async function withOldSqlite(
  version: number,
  rows: OldRows,
  check: (store: SqliteStore) => Promise<void>,
  fill?: (db: DatabaseSync) => void,
): Promise<void> {
  const dir = tempDir('codebook-old-');
  const path = join(dir, 'old.db');
  try {
    const db = new DatabaseSync(path);
    // From schema 15 on, the bookkeeping lives in the activity file: a database that old had it beside it.
    if (version >= ACTIVITY_MOVE) attachActivity(db, path);
    SQLITE_MIGRATIONS.slice(0, version).forEach((migration, i) => {
      if (i + 1 === ACTIVITY_MOVE) copyIntoActivity(db);
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
    });
    if (version >= ACTIVITY_MOVE) db.exec('DETACH DATABASE activity');
    db.exec(`PRAGMA user_version = ${version}`);
    for (const [table, list] of rows)
      for (const row of list) {
        const values = Object.values(row).map((v): SQLInputValue => (typeof v === 'boolean' ? Number(v) : v));
        db.prepare(insertSql(table, row, () => '?')).run(...values);
      }
    fill?.(db);
    db.close();
    const store = new SqliteStore({ path });
    try {
      await check(store);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same on a fresh schema of a test database; check also gets a client on that schema, still connected. */
export async function withOldPostgres(
  database: TestDatabase,
  version: number,
  rows: OldRows,
  check: (store: PostgresStore, client: pg.Client) => Promise<void>,
): Promise<void> {
  const schema = await database.createSchema();
  await migratePostgres({ url: database.url, schema }, POSTGRES_MIGRATIONS.slice(0, version));
  const client = new pg.Client({ connectionString: database.url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    for (const [table, list] of rows)
      for (const row of list)
        await client.query(
          insertSql(table, row, (i) => `$${i + 1}`),
          Object.values(row),
        );
    const store = await PostgresStore.open({ url: database.url, schema, max: 2 });
    try {
      await check(store, client);
    } finally {
      await store.close();
    }
  } finally {
    await client.end();
  }
}
