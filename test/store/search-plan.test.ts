/**
 * The SQLite search reads each group from an index range, in the group's
 * order, without sorting: the statements it runs are asked for their plans.
 * The third group (the display starts with the query, the code does not) is
 * read from the display index alone (it carries the folded code since
 * migration 11), so a candidate costs no row lookup before its record is read.
 * The fourth gives FTS5 the cursor as an integer, which FTS5 seeks to.
 */
import assert from 'node:assert/strict';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { join } from 'node:path';
import { test } from 'node:test';
import { searchTerms } from '../../src/domain/search-text.ts';
import { searchSqlite } from '../../src/store/sqlite/search.ts';
import { createTestContext, tempDir } from '../helpers/context.ts';

test('each group of a search is an index range; the third reads the display index alone', async () => {
  const dir = tempDir('codebook-search-plan-');
  const path = join(dir, 'codebook.db');
  const ctx = await createTestContext({ env: { DATABASE_URL: `sqlite:${path}` } });
  try {
    await ctx.importRows(
      [
        { code: 'AB1', display: 'Abacus' },
        { code: 'X2', display: 'Abbey road' },
        { code: 'X3', display: 'Road to the abbey' },
      ],
      { system: 'plan', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' },
    );
    const db = new DatabaseSync(path, { readOnly: true });
    const seen: string[] = [];
    const statements = {
      arrays(sql: string): StatementSync {
        seen.push(sql);
        const statement = db.prepare(sql);
        statement.setReturnArrays(true);
        return statement;
      },
    };
    const page = await searchSqlite(statements, { terms: searchTerms('ab'), after: null, limit: 50, system: null, status: null });
    assert.equal(page.count, 3, 'code prefix, display prefix, a word');
    const plans = seen
      .filter((sql) => sql.includes('FROM search_codes') || sql.includes('FROM search_words'))
      .map((sql) => {
        const params = [...new Set([...sql.matchAll(/\$(\w+)/g)].map((m) => m[1]!))];
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(Object.fromEntries(params.map((p) => [p, p === 'limit' ? 51 : 'ab']))) as { detail: string }[];
        return plan.map((row) => row.detail).join(' | ');
      });
    db.close();
    assert.equal(plans.length, 4, plans.join('\n'));
    for (const plan of plans) assert.doesNotMatch(plan, /TEMP B-TREE|SCAN s\b/, `a group sorts or scans: ${plan}`);
    assert.match(plans[2]!, /USING COVERING INDEX search_by_display/, plans[2]);
    // node:sqlite binds a number as REAL, and FTS5 takes a rowid bound only as an INTEGER: without the
    // cast it reads every doclist from its start and a deep page costs what the rows before it do.
    const wordGroup = seen.find((sql) => sql.includes('search_words MATCH'))!;
    assert.match(wordGroup, /f\.rowid > CAST\(\$afterSeq AS INTEGER\)/, 'the cursor reaches FTS5 as an integer rowid bound');
  } finally {
    await ctx.close();
  }
});
