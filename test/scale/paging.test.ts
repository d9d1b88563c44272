/**
 * Two instances on one PostgreSQL and one Redis: a walk that alternates
 * between them returns every record exactly once, with cursors signed by one
 * accepted by the other, also while two imports race on both instances.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { importRowsInto, tempDir } from '../helpers/context.ts';
import { createCluster, type Cluster, type Instance } from '../helpers/cluster.ts';
import { skipUnlessBoth } from '../helpers/services.ts';
import { rmSync } from 'node:fs';

const skip = await skipUnlessBoth();

interface Page {
  data: { id: string | number; effective_date?: string }[];
  pagination: { has_more: boolean; next_cursor?: string };
}

/** Pages through path, taking instance i % 2 for page i; between(i) runs after each page. */
async function walk(instances: Instance[], path: string, key: string, between?: (page: number) => Promise<void>): Promise<Page['data']> {
  const records: Page['data'] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1_000; page++) {
    const separator = path.includes('?') ? '&' : '?';
    const url = cursor === undefined ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`;
    const res = await instances[page % instances.length]!.get(url, key);
    assert.equal(res.status, 200, `page ${page} on instance ${page % instances.length}: ${await res.clone().text()}`);
    const body = (await res.json()) as Page;
    records.push(...body.data);
    if (!body.pagination.has_more) return records;
    cursor = body.pagination.next_cursor;
    await between?.(page);
  }
  assert.fail('the walk did not end');
}

describe('paging across instances', { skip }, () => {
  let cluster: Cluster;
  let a: Instance;
  let b: Instance;
  let key: string;
  const dir = tempDir();
  const rows = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ code: `${prefix}${String(i).padStart(4, '0')}`, display: `${prefix} ${i}` }));

  before(async () => {
    cluster = await createCluster('paging');
    a = await cluster.instance();
    b = await cluster.instance();
    ({ key } = await cluster.customer('walker', { ratePerMinute: 1_000_000, monthlyQuota: null }));
    await importRowsInto(a.deps.store, dir, rows('C', 230), { system: 'sys', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await cluster?.close();
  });

  test('codes: alternating instances, every code once, in order', async () => {
    const records = await walk([a, b], '/v1/codes?limit=17', key);
    const ids = records.map((r) => r.id);
    assert.equal(ids.length, 230);
    assert.equal(new Set(ids).size, 230, 'no code twice');
    assert.deepEqual(ids, [...ids].sort(), 'in id order');
  });

  test('a cursor signed by one instance is accepted by the other, and tampering is refused by both', async () => {
    const first = (await (await a.get('/v1/codes?limit=5', key)).json()) as Page;
    const fromB = (await (await b.get(`/v1/codes?limit=5&cursor=${first.pagination.next_cursor}`, key)).json()) as Page;
    assert.equal(fromB.data[0]!.id, 'sys:C0005');
    // One character of the signature changed, always to another one (a signature may itself end in "AA").
    const genuine = first.pagination.next_cursor!;
    const at = genuine.length - 2;
    const tampered = `${genuine.slice(0, at)}${genuine[at] === 'A' ? 'B' : 'A'}${genuine.slice(at + 1)}`;
    for (const instance of [a, b]) assert.equal((await instance.get(`/v1/codes?limit=5&cursor=${tampered}`, key)).status, 400);
  });

  test('changes: imports racing on both instances while a client pages alternately: nothing skipped, nothing repeated', async () => {
    let batch = 0;
    const records = await walk([a, b], '/v1/changes?limit=20', key, async (page) => {
      if (page % 3 !== 0 || batch >= 4) return;
      batch++;
      // Two writers at once, one per instance, on the same later date.
      await Promise.all([
        importRowsInto(a.deps.store, dir, rows(`A${batch}x`, 15), { system: 'sys', release: `a${batch}`, effectiveDate: `2025-0${batch}-01` }),
        importRowsInto(b.deps.store, dir, rows(`B${batch}x`, 15), { system: 'other', release: `b${batch}`, effectiveDate: `2025-0${batch}-01` }),
      ]);
    });
    assert.equal(batch, 4, 'the imports ran during the walk');
    const all = (await walk([b], '/v1/changes?limit=200', key)).map((r) => `${r.effective_date}#${r.id}`);
    assert.equal(all.length, 230 + 4 * 30);
    const seen = records.map((r) => `${r.effective_date}#${r.id}`);
    assert.equal(new Set(seen).size, seen.length, 'no change twice');
    assert.deepEqual(seen, all, 'every change, including those committed during the walk (they sort after its position), in order');
  });
});
