/**
 * A change and its audit entry are written together or not at all, on SQLite
 * and PostgreSQL, by the real operator CLI: with every insert into the audit
 * log refused (a trigger), each command that records one fails on one line
 * and leaves the database as it was. On PostgreSQL a CLI killed with kill -9
 * while its audit entry is being written leaves no key behind either.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { createOrg, setPlan } from '../../src/services/access/admin.ts';
import { BIN, childEnv, runCodebook, type CliResult } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';

const REFUSED = 'codebook: unexpected error: simulated audit failure\n';

interface Backend {
  name: string;
  skip: string | false;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  databaseUrl(): string;
  /** Runs SQL on a connection of the test's own. */
  exec(sql: string): Promise<void>;
  refuseAudit: string;
  allowAudit: string;
}

function sqliteBackend(): Backend {
  let dir = '';
  return {
    name: 'SQLite',
    skip: false,
    async setUp() {
      dir = tempDir('codebook-audit-atomic-');
    },
    async tearDown() {
      rmSync(dir, { recursive: true, force: true });
    },
    databaseUrl: () => `sqlite:${join(dir, 'codebook.db')}`,
    async exec(sql) {
      const db = new DatabaseSync(join(dir, 'codebook.db'));
      try {
        db.exec(sql);
      } finally {
        db.close();
      }
    },
    refuseAudit: "CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'simulated audit failure'); END",
    allowAudit: 'DROP TRIGGER refuse_audit',
  };
}

function postgresBackend(skip: string | false): Backend {
  let db: TestDatabase | null = null;
  return {
    name: 'PostgreSQL',
    skip,
    async setUp() {
      db = await createTestDatabase('codebook_audit');
    },
    async tearDown() {
      await db?.drop();
    },
    databaseUrl: () => db!.url,
    async exec(sql) {
      const client = new pg.Client({ connectionString: db!.url });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    },
    refuseAudit: `CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated audit failure'; END $$;
                  CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit()`,
    allowAudit: 'DROP TRIGGER refuse_audit ON audit_log; DROP FUNCTION refuse_audit()',
  };
}

interface JsonKey {
  id: string;
  name: string;
  state: string;
  expires_at: string | null;
}

for (const backend of [sqliteBackend(), postgresBackend(await skipUnlessPostgres())]) {
  describe(`a change and its audit entry, together or not at all (${backend.name})`, { skip: backend.skip }, () => {
    const codebook = (...args: string[]) => runCodebook(args, { settings: { DATABASE_URL: backend.databaseUrl() } });
    async function json<T>(...args: string[]): Promise<T> {
      const r = await codebook(...args, '--json');
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as T;
    }
    async function withDeps<T>(fn: (deps: Deps) => Promise<T>): Promise<T> {
      const deps = await createDeps(loadConfig({ DATABASE_URL: backend.databaseUrl(), LOG_LEVEL: 'silent' }));
      try {
        return await fn(deps);
      } finally {
        await deps.close();
      }
    }
    /** The actions in the organisation's audit log, oldest first. */
    const auditOf = (slug: string) =>
      withDeps(async (deps) => {
        const org = (await deps.store.access.getOrg(slug))!;
        return (await deps.store.dashboard.listAudit(org.id, 100)).map((e) => e.action).reverse();
      });
    /** Runs the command with every audit entry refused: it must fail on one line and print nothing else (no key). */
    async function refused(...args: string[]): Promise<CliResult> {
      await backend.exec(backend.refuseAudit);
      try {
        const r = await codebook(...args);
        assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', REFUSED]);
        return r;
      } finally {
        await backend.exec(backend.allowAudit);
      }
    }

    before(async () => {
      await backend.setUp();
      await withDeps(async (deps) => {
        await setPlan(deps.admin, { name: 'basic', endpoints: ['codes.list'], ratePerMinute: 60, monthlyQuota: 1000, testKeysAllowed: false });
        for (const slug of ['ax', 'bx', 'cx', 'ux']) await createOrg(deps.admin, slug, 'basic');
      });
    });
    after(() => backend.tearDown());

    test('keys create: the command fails and no key is stored, not even one nobody saw', async () => {
      await refused('keys', 'create', '--org', 'ax', '--name', 'a1');
      assert.deepEqual(await json<JsonKey[]>('keys', 'list', '--org', 'ax'), []);
      assert.deepEqual(await auditOf('ax'), []);
      // Once the audit log takes entries again, the same command stores both.
      const created = await json<{ id: string }>('keys', 'create', '--org', 'ax', '--name', 'a1');
      assert.deepEqual(
        (await json<JsonKey[]>('keys', 'list', '--org', 'ax')).map((k) => [k.id, k.state]),
        [[created.id, 'active']],
      );
      assert.deepEqual(await auditOf('ax'), ['key.created']);
    });

    test('keys revoke: the command fails and the key stays active', async () => {
      const created = await json<{ id: string }>('keys', 'create', '--org', 'bx', '--name', 'b1');
      await refused('keys', 'revoke', created.id);
      assert.deepEqual(
        (await json<JsonKey[]>('keys', 'list', '--org', 'bx')).map((k) => [k.id, k.state]),
        [[created.id, 'active']],
      );
      assert.deepEqual(await auditOf('bx'), ['key.created']);
    });

    test('keys roll: the command fails; no successor, and the old key keeps no end', async () => {
      const created = await json<{ id: string }>('keys', 'create', '--org', 'cx', '--name', 'c1');
      await refused('keys', 'roll', created.id, '--grace', 'now');
      assert.deepEqual(
        (await json<JsonKey[]>('keys', 'list', '--org', 'cx')).map((k) => [k.id, k.state, k.expires_at]),
        [[created.id, 'active', null]],
      );
      assert.deepEqual(await auditOf('cx'), ['key.created']);
    });

    test('users create and disable: the command fails and the user is as before', async () => {
      await refused('users', 'create', '--org', 'ux', '--email', 'una@example.com');
      assert.deepEqual(await json<unknown[]>('users', 'list', '--org', 'ux'), []);
      await json('users', 'create', '--org', 'ux', '--email', 'una@example.com');
      await refused('users', 'disable', '--email', 'una@example.com');
      const [una] = await json<{ email: string; disabled_at: string | null }[]>('users', 'list', '--org', 'ux');
      assert.deepEqual([una?.email, una?.disabled_at], ['una@example.com', null]);
      assert.deepEqual(await auditOf('ux'), ['user.created']);
    });

    // PostgreSQL only: the test holds the entry's insert open (pg_sleep in a trigger), which SQLite cannot do.
    if (backend.name === 'PostgreSQL')
      test('kill -9 while the audit entry is written leaves no key behind', async () => {
        await withDeps((deps) => createOrg(deps.admin, 'kx', 'basic'));
        // Each audit entry now takes two seconds to write: the command is killed meanwhile.
        await backend.exec(`CREATE FUNCTION slow_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(2); RETURN NEW; END $$;
                          CREATE TRIGGER slow_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION slow_audit()`);
        const admin = new pg.Client({ connectionString: backend.databaseUrl() });
        await admin.connect();
        try {
          const child = spawn(process.execPath, [BIN, 'keys', 'create', '--org', 'kx', '--name', 'k1'], {
            env: childEnv({ DATABASE_URL: backend.databaseUrl() }),
            stdio: 'ignore',
          });
          const exited = new Promise((resolve) => child.on('exit', resolve));
          const writing = async () =>
            (
              await admin.query<{ pid: number }>(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'INSERT INTO audit_log%' AND state = 'active'",
              )
            ).rows;
          let backends = await writing();
          for (const deadline = Date.now() + 20_000; backends.length === 0; backends = await writing()) {
            assert.ok(Date.now() < deadline, 'the command never wrote its audit entry');
            await sleep(20);
          }
          child.kill('SIGKILL');
          await exited;
          // The server ends the killed command's session once its statement is done.
          const gone = async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1)', [backends.map((b) => b.pid)])).rows.length === 0;
          for (const deadline = Date.now() + 20_000; !(await gone());) {
            assert.ok(Date.now() < deadline, "the killed command's session never ended");
            await sleep(50);
          }
          await backend.exec('DROP TRIGGER slow_audit ON audit_log; DROP FUNCTION slow_audit()');
          assert.deepEqual(await json<JsonKey[]>('keys', 'list', '--org', 'kx'), [], 'a key without its audit entry');
          assert.deepEqual(await auditOf('kx'), []);
        } finally {
          await admin.end();
        }
      });
  });
}
