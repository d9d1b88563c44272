/**
 * The back-dating guard holds an import to its system's latest_effective_date,
 * on both backends: the latest date of the system's releases, a release that
 * changed nothing included. A client that asks for the system's changes from
 * that date on (`effective_from`) must not miss a change recorded later.
 */
import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { ImportRejected } from '../../src/services/import/importer.ts';
import { importBackends, type BackendFixture } from './import-backends.ts';

const backends = await importBackends();
after(() => Promise.all(backends.map((b) => b.dispose())));

for (const backend of backends) {
  describe(`back-dating against the latest effective date, on ${backend.name}`, { skip: backend.skip }, () => {
    let fx: BackendFixture;
    beforeEach(async () => {
      fx = await backend.open();
      // The system's latest change is dated 2026-06-02; its latest release, 2026-08-01, changed nothing.
      await fx.importText('code,display\nA,Alpha\nB,Beta\n', { system: 'ord', release: 'o3', effectiveDate: '2026-06-02', mode: 'snapshot' });
      const unchanged = await fx.importText('code,display\nA,Alpha\nB,Beta\n', { system: 'ord', release: 'o4', effectiveDate: '2026-08-01', mode: 'snapshot' });
      assert.equal(unchanged.firstChangeId, null, 'the release of 2026-08-01 changed nothing');
    });
    afterEach(() => fx.close());

    const system = async () => (await fx.store.systems.getSystem('ord'))!;

    test('an import with changes dated before a release that changed nothing is refused, and writes nothing', async () => {
      assert.equal((await system()).latestEffectiveDate, '2026-08-01');
      const before = await fx.snapshot();
      const error = await fx.importText('code,display\nC,Gamma\n', { system: 'ord', release: 'o5', effectiveDate: '2026-07-15' }).then(
        () => assert.fail('the back-dated import was accepted'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ImportRejected, String(error));
      assert.equal(
        error.message,
        'effectiveDate 2026-07-15 is before the latest effective date of system ord (2026-08-01): clients following its changes from 2026-08-01 on would never see these 1 change(s). Pass allowBackdated to record them anyway.',
      );
      assert.equal(await fx.snapshot(), before);
      assert.deepEqual([(await system()).latestRelease, (await system()).latestEffectiveDate], ['o4', '2026-08-01']);
    });

    test('on the latest effective date itself, or later, it is accepted, and a client asking from that date sees it', async () => {
      const summary = await fx.importText('code,display\nC,Gamma\n', { system: 'ord', release: 'o5', effectiveDate: '2026-08-01' });
      assert.equal(summary.added, 1);
      const since = await fx.store.pageChanges({
        after: null,
        limit: 10,
        system: 'ord',
        codeId: null,
        type: null,
        effectiveFrom: '2026-08-01',
        effectiveTo: null,
      });
      assert.deepEqual(
        (JSON.parse(`[${since.json.toString('utf8')}]`) as { code_id: string }[]).map((c) => c.code_id),
        ['ord:C'],
      );
    });

    test('with allowBackdated it is recorded; the latest effective date stays the later one', async () => {
      const summary = await fx.importText('code,display\nC,Gamma\n', { system: 'ord', release: 'o5', effectiveDate: '2026-07-15', allowBackdated: true });
      assert.equal(summary.added, 1);
      assert.deepEqual([(await system()).latestRelease, (await system()).latestEffectiveDate], ['o5', '2026-08-01']);
    });

    test('an import dated before it that changes nothing is still accepted', async () => {
      const summary = await fx.importText('code,display\nA,Alpha\n', { system: 'ord', release: 'o5', effectiveDate: '2026-07-15' });
      assert.deepEqual([summary.added, summary.revised, summary.unchanged], [0, 0, 1]);
    });

    test("another system's releases do not hold a system back", async () => {
      const summary = await fx.importText('code,display\nZ,Zeta\n', { system: 'other', release: 'x1', effectiveDate: '2026-07-15' });
      assert.equal(summary.added, 1);
    });
  });
}
