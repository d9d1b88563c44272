/**
 * Real PostgreSQL for tests: each test file gets a database of its own,
 * created fresh and dropped afterwards, so files run in parallel. Inside it,
 * tests that need a clean slate take a fresh schema.
 *
 * TEST_POSTGRES_URL names the server (default: the local one, trust auth).
 * When it cannot be reached, tests skip with a line that says so.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const where = new URL(ADMIN_URL);
export const POSTGRES_SKIP = `PostgreSQL not reachable on ${where.hostname}:${where.port || '5432'}`;

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function postgresReachable(): Promise<boolean> {
  try {
    await withAdmin((c) => c.query('SELECT 1'));
    return true;
  } catch {
    return false;
  }
}

export interface TestDatabase {
  name: string;
  /** URL of the fresh database. */
  url: string;
  /** A URL for the same database with another host and port (a proxy in front of it). */
  urlVia(port: number): string;
  /** A fresh, empty schema in this database; its name. */
  createSchema(): Promise<string>;
  drop(): Promise<void>;
}

export async function createTestDatabase(prefix = 'codebook_test'): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let schemas = 0;
  return {
    name,
    url: url.toString(),
    urlVia(port) {
      const via = new URL(url);
      via.hostname = '127.0.0.1';
      via.port = String(port);
      return via.toString();
    },
    async createSchema() {
      const schema = `t${++schemas}_${randomBytes(3).toString('hex')}`;
      const client = new pg.Client({ connectionString: url.toString() });
      client.on('error', () => undefined);
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${schema}`);
      } finally {
        await client.end();
      }
      return schema;
    },
    async drop() {
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
