/**
 * Parents form a hierarchy: no code may be its own ancestor, whatever import
 * would close the cycle — one file, or a delta over parents already stored.
 * The walk up stored parents runs through the store's import transaction,
 * so the delta cases run on both backends.
 */
import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { ImportRejected } from '../../src/services/import/importer.ts';
import { importBackends, type BackendFixture } from './import-backends.ts';
import { openImportFixture, type ImportFixture } from './import-helpers.ts';

async function refused(fx: ImportFixture, text: string, mode: 'snapshot' | 'delta' = 'delta'): Promise<[number, string][]> {
  const before = await fx.snapshot();
  const error = await fx.importText(text, { mode, release: 'r9', effectiveDate: '2024-09-01' }).then(
    () => assert.fail('the import was accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ImportRejected, String(error));
  assert.match(error.message, /^\d+ problem\(s\) (with parents )?in .*; nothing was imported$/);
  assert.equal(await fx.snapshot(), before, 'nothing was applied');
  return error.errors.map((e) => [e.line, e.message]);
}

const CYCLE = (path: string) => `parents form a cycle (→ means "has parent"): ${path}; remove one of these parents`;

describe('cycles within one file', () => {
  let fx: ImportFixture;
  beforeEach(() => {
    fx = openImportFixture();
  });
  afterEach(() => fx.close());

  for (const mode of ['snapshot', 'delta'] as const) {
    test(`${mode}: two codes each other's parent, and a three-code cycle, each refused with their lines`, async () => {
      assert.deepEqual(await refused(fx, 'code,display,parents\nA,Alpha,B\nB,Beta,A\nR,Root,\n', mode), [[2, CYCLE('A (line 2) → B (line 3) → A')]]);
      assert.deepEqual(await refused(fx, 'code,display,parents\nR,Root,\nA,Alpha,C\nB,Beta,A\nC,Gamma,B;R\n', mode), [
        [3, CYCLE('A (line 3) → C (line 5) → B (line 4) → A')],
      ]);
    });
  }

  test('two separate cycles are two problems; a code under a cycle is not one', async () => {
    const errors = await refused(fx, 'code,display,parents\nA,Alpha,B\nB,Beta,A\nUnder,Below the cycle,A\nX,Ex,Y\nY,Why,X\n');
    assert.deepEqual(errors, [
      [2, CYCLE('A (line 2) → B (line 3) → A')],
      [5, CYCLE('X (line 5) → Y (line 6) → X')],
    ]);
  });

  test('a code that is its own parent and a parent that is no code are still refused; a tree is accepted', async () => {
    assert.deepEqual(await refused(fx, 'code,display,parents\nA,Alpha,A\n'), [[2, 'a code cannot be its own parent']]);
    assert.deepEqual(await refused(fx, 'code,display,parents\nA,Alpha,Q\n'), [[2, 'parent Q is not a code of this system']]);
    const tree = await fx.importText('code,display,parents\nA,Alpha,\nB,Beta,A\nC,Gamma,A;B\nD,Delta,C\n');
    assert.equal(tree.added, 4);
  });
});

describe('a 100 000-deep chain', () => {
  let fx: ImportFixture;
  beforeEach(() => {
    fx = openImportFixture();
  });
  afterEach(() => fx.close());

  test('imports as a snapshot; a delta closing it into one cycle is refused, one that extends it is accepted', async () => {
    const depth = 100_000;
    const rows = Array.from({ length: depth }, (_, i) => `C${i},Level ${i},${i === 0 ? '' : `C${i - 1}`}`);
    assert.equal((await fx.importText(`code,display,parents\n${rows.join('\n')}\n`, { mode: 'snapshot' })).added, depth);
    // The cycle runs up all 100 000 stored levels: no recursion, no stack to overflow.
    const errors = await refused(fx, `code,display,parents\nC0,Level 0,C${depth - 1}\n`);
    assert.equal(errors.length, 1);
    const stored = Array.from({ length: 11 }, (_, i) => `C${depth - 1 - i} (stored)`);
    assert.deepEqual(errors[0], [2, CYCLE(['C0 (line 2)', ...stored, `… ${depth - 12} more`, 'C0'].join(' → '))]);
    const extended = await fx.importText(`code,display,parents\nC${depth},Level ${depth},C${depth - 1}\n`, { release: 'r2', effectiveDate: '2024-02-01' });
    assert.equal(extended.added, 1);
  });
});

const backends = await importBackends();
after(() => Promise.all(backends.map((b) => b.dispose())));

for (const backend of backends) {
  describe(`cycles closed over stored parents, on ${backend.name}`, { skip: backend.skip }, () => {
    let fx: BackendFixture;
    beforeEach(async () => {
      fx = await backend.open();
      // R ← A ← B ← C, and D beside them.
      await fx.importText('code,display,parents\nR,Root,\nA,Alpha,R\nB,Beta,A\nC,Gamma,B\nD,Delta,\n');
    });
    afterEach(() => fx.close());

    test('a later delta that makes a stored ancestor a child is refused with its line and the stored codes', async () => {
      assert.deepEqual(await refused(fx, 'code,display,parents\nA,Alpha,C\n'), [[2, CYCLE('A (line 2) → C (stored) → B (stored) → A')]]);
      assert.deepEqual(await refused(fx, 'code,display,parents\nD,Delta,\nR,Root,C\n'), [[3, CYCLE('R (line 3) → C (stored) → B (stored) → A (stored) → R')]]);
    });

    test('a cycle closed by two rows of one delta over a stored code; moving a code within the tree is accepted', async () => {
      assert.deepEqual(await refused(fx, 'code,display,parents\nD,Delta,C\nR,Root,D\n'), [
        [2, CYCLE('D (line 2) → C (stored) → B (stored) → A (stored) → R (line 3) → D')],
      ]);
      const moved = await fx.importText('code,display,parents\nC,Gamma,A;D\nB,Beta,R\n', { release: 'r2', effectiveDate: '2024-02-01' });
      assert.equal(moved.revised, 2);
    });

    test('a snapshot that closes no cycle in the file is not held to stored parents it replaces', async () => {
      const summary = await fx.importText('code,display,parents\nC,Gamma,\nB,Beta,C\nA,Alpha,B\nR,Root,A\nD,Delta,\n', {
        mode: 'snapshot',
        release: 'r2',
        effectiveDate: '2024-02-01',
      });
      assert.equal(summary.revised, 4, 'the whole chain turned upside down in one snapshot');
    });

    test('a cycle stored before cycles were refused: a delta under it names it and the fix, and the fix imports', async () => {
      const cycle = (code: string, parent: string) => ({
        id: `t:${code}`,
        system: 't',
        code,
        status: 'active',
        hash: 'legacy',
        json: JSON.stringify({
          object: 'code',
          id: `t:${code}`,
          system: 't',
          code,
          display: code,
          definition: null,
          status: 'active',
          parents: [`t:${parent}`],
          attributes: {},
          release: 'r0',
          effective_from: '2023-01-01',
          updated_at: '2023-01-01T00:00:00.000Z',
        }),
      });
      await fx.writeRawCode(cycle('P', 'Q'));
      await fx.writeRawCode(cycle('Q', 'P'));
      assert.deepEqual(await refused(fx, 'code,display,parents\nUnder,Below,P\n'), [
        [
          2,
          'Under has stored ancestors that form a cycle (→ means "has parent"): P (stored) → Q (stored) → P; import a delta row for one of them with a corrected parents field',
        ],
      ]);
      const fixed = await fx.importText('code,display,parents\nQ,Q,\nUnder,Below,P\n', { release: 'r2', effectiveDate: '2024-02-01' });
      assert.deepEqual([fixed.added, fixed.revised], [1, 1]);
    });
  });
}
