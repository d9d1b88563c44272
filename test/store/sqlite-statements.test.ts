/**
 * SqliteStatements writes each bound LIMIT as an expression (`LIMIT (? + 0)`),
 * so that SQLite does not plan the statement again every time the limit is
 * bound (see statements.ts). The rewrite must leave what a statement answers
 * as it was: a statement kept and run with another limit each time gives that
 * many rows, positional and named.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { limitAtRunTime, SqliteStatements } from '../../src/store/sqlite/statements.ts';

test('bound LIMITs become expressions; literal ones and other text are left as written', () => {
  assert.equal(limitAtRunTime('SELECT a FROM t ORDER BY a LIMIT ?'), 'SELECT a FROM t ORDER BY a LIMIT (? + 0)');
  assert.equal(limitAtRunTime('SELECT a FROM t ORDER BY a LIMIT $limit'), 'SELECT a FROM t ORDER BY a LIMIT ($limit + 0)');
  assert.equal(
    limitAtRunTime('SELECT * FROM (SELECT a FROM t LIMIT $limit) UNION ALL SELECT * FROM (SELECT a FROM u LIMIT $limit) LIMIT $limit'),
    'SELECT * FROM (SELECT a FROM t LIMIT ($limit + 0)) UNION ALL SELECT * FROM (SELECT a FROM u LIMIT ($limit + 0)) LIMIT ($limit + 0)',
  );
  assert.equal(limitAtRunTime('SELECT a FROM t LIMIT 1'), 'SELECT a FROM t LIMIT 1');
  assert.equal(limitAtRunTime("SELECT 'LIMIT ?' AS x"), "SELECT 'LIMIT (? + 0)' AS x", 'a plain text rewrite: no statement of the store holds such a string');
});

class Probe extends SqliteStatements {
  positional(after: number, limit: number): number[] {
    return (this.arrays('SELECT n FROM t WHERE n > ? ORDER BY n LIMIT ?').all(after, limit) as unknown as [number][]).map((r) => r[0]);
  }
  named(after: number, limit: number): number[] {
    return (this.stmt('SELECT n FROM t WHERE n > $after ORDER BY n LIMIT $limit').all({ after, limit }) as { n: number }[]).map((r) => r.n);
  }
}

test('a kept statement answers each run with the limit bound for it', () => {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    for (let n = 1; n <= 20; n++) insert.run(n);
    const probe = new Probe(db);
    for (const read of [probe.positional.bind(probe), probe.named.bind(probe)]) {
      assert.deepEqual(read(0, 3), [1, 2, 3]);
      assert.deepEqual(read(3, 1), [4]);
      assert.deepEqual(read(10, 50), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      assert.deepEqual(read(0, 0), []);
      assert.deepEqual(read(18, 5), [19, 20]);
    }
  } finally {
    db.close();
  }
});
