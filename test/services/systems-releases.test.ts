/** The operator's view of a system's releases (`codebook systems show`) holds every release, however many pages they take. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { allReleases } from '../../src/services/systems.ts';
import { openImportFixture } from './import-helpers.ts';

const fx = openImportFixture();
after(() => fx.close());

test('every release, in import order, across pages of the store', async () => {
  for (let day = 1; day <= 5; day++) await fx.importText('code,display\nA,Alpha\n', { effectiveDate: `2024-01-0${day}` });
  for (const pageSize of [1, 2, 5, 500]) {
    assert.deepEqual(
      (await allReleases(fx.store, 't', pageSize)).map((r) => r.id),
      ['r1', 'r2', 'r3', 'r4', 'r5'],
      `${pageSize} a page`,
    );
  }
  assert.deepEqual(await allReleases(fx.store, 'nosuch', 2), []);
});
