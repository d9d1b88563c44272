/**
 * The import fixture on each backend, for the importer tests whose path
 * differs between them (the store's import transaction), with a way to write
 * rows behind the importer's back as a damaged or older database holds them.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';
import { importFixture, type ImportFixture } from './import-helpers.ts';

export interface RawCodeRow {
  id: string;
  system: string;
  code: string;
  status: string;
  hash: string;
  json: string;
}

/** Where the fixture's database is, for another process to open it. */
export type DatabaseLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema: string };

export interface BackendFixture extends ImportFixture {
  location: DatabaseLocation;
  /** Inserts or replaces a code row with plain SQL, bypassing the store. */
  writeRawCode(row: RawCodeRow): Promise<void>;
  /** The stored code column of an id, as UTF-8 bytes in hex. */
  rawCodeHex(id: string): Promise<string | null>;
}

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** The `skip` option of the describe() that uses it. */
  skip: string | false;
  open(): Promise<BackendFixture>;
  /** Once, after every test of the file. */
  dispose(): Promise<void>;
}

function sqliteBackend(): Backend {
  return {
    name: 'sqlite',
    skip: false,
    async open() {
      const dir = tempDir();
      const path = join(dir, 'codebook.db');
      const fixture = importFixture(new SqliteStore({ path }), dir, async () => undefined);
      const raw = <T>(fn: (db: DatabaseSync) => T): T => {
        const db = new DatabaseSync(path);
        try {
          return fn(db);
        } finally {
          db.close();
        }
      };
      return Object.assign(fixture, {
        location: { kind: 'sqlite' as const, path },
        async writeRawCode(row: RawCodeRow) {
          raw((db) =>
            db
              .prepare('INSERT OR REPLACE INTO codes (id, system, code, status, hash, json) VALUES (?, ?, ?, ?, ?, ?)')
              .run(row.id, row.system, row.code, row.status, row.hash, row.json),
          );
        },
        async rawCodeHex(id: string) {
          const found = raw((db) => db.prepare('SELECT hex(code) AS hex FROM codes WHERE id = ?').get(id)) as { hex: string } | undefined;
          return found?.hex ?? null;
        },
      });
    },
    async dispose() {},
  };
}

async function postgresBackend(): Promise<Backend> {
  const skip = await skipUnlessPostgres();
  let db: TestDatabase | null = null;
  return {
    name: 'postgres',
    skip,
    async open() {
      db ??= await createTestDatabase('codebook_import');
      const schema = await db.createSchema();
      const store = await PostgresStore.open({ url: db.url, schema, max: 4 });
      const client = new pg.Client({ connectionString: db.url, options: `-c search_path=${schema}` });
      client.on('error', () => undefined);
      await client.connect();
      const fixture = importFixture(store, tempDir(), () => client.end());
      return Object.assign(fixture, {
        location: { kind: 'postgres' as const, url: db.url, schema },
        async writeRawCode(row: RawCodeRow) {
          await client.query(
            `INSERT INTO codes (id, system, code, status, hash, json) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (id) DO UPDATE SET code = excluded.code, status = excluded.status, hash = excluded.hash, json = excluded.json`,
            [row.id, row.system, row.code, row.status, row.hash, row.json],
          );
        },
        async rawCodeHex(id: string) {
          const found = await client.query<{ hex: string }>(`SELECT upper(encode(convert_to(code, 'UTF8'), 'hex')) AS hex FROM codes WHERE id = $1`, [id]);
          return found.rows[0]?.hex ?? null;
        },
      });
    },
    async dispose() {
      await db?.drop();
    },
  };
}

/** SQLite always; PostgreSQL when reachable (and required under CI). */
export async function importBackends(): Promise<Backend[]> {
  return [sqliteBackend(), await postgresBackend()];
}
