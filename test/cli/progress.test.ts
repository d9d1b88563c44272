/** The import's progress on stderr: a bar redrawn in place on a terminal, plain lines in a log, nothing for a quick import. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { progressBar } from '../../src/cli/progress.ts';

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) }, written };
}

test('on a terminal: one line redrawn in place with the stage, share, rows and rows per second; cleared when done', () => {
  let now = 0;
  const { stream, written } = fakeStream(true);
  const bar = progressBar(stream, () => now);
  bar.update('read', 0, 2_000_000, 0);
  now = 2_000;
  bar.update('read', 1_000_000, 2_000_000, 50_000);
  now = 3_000;
  bar.update('write', 30_000, 100_000, 30_000);
  bar.done();
  assert.equal(written.length, 4);
  // eslint-disable-next-line no-control-regex -- the bar's terminal codes are what is checked
  assert.match(written[1]!, /^\rreading {4}\[#{15}-{15}\] {2}50% 1\.0\/2\.0 MB, 50 000 rows, 25 000 rows\/s\x1b\[K$/);
  // A new stage starts its own clock: no time has passed in it yet.
  // eslint-disable-next-line no-control-regex -- the bar's terminal codes are what is checked
  assert.match(written[2]!, /^\rwriting {4}\[#{9}-{21}\] {2}30% 30 000 rows, 0 rows\/s\x1b\[K$/);
  assert.equal(written[3], '\r\x1b[K');
});

test('not a terminal: nothing for the first seconds, then a plain line per stage and every ten seconds, no control characters', () => {
  let now = 0;
  const { stream, written } = fakeStream(false);
  const bar = progressBar(stream, () => now);
  bar.update('read', 10, 100, 1_000);
  now = 5_000;
  bar.update('read', 50, 100, 5_000);
  assert.deepEqual(written, [], 'a quick import prints nothing');
  now = 12_000;
  bar.update('read', 100, 100, 12_000);
  now = 13_000;
  bar.update('sort', 0, 12_000, 0);
  now = 14_000;
  bar.update('write', 1_000, 12_000, 1_000);
  now = 15_000;
  bar.update('write', 2_000, 12_000, 2_000);
  now = 25_000;
  bar.update('write', 12_000, 12_000, 12_000);
  bar.done();
  assert.deepEqual(written, [
    'reading: 100%, 0.0/0.0 MB, 12 000 rows, 1 000 rows/s\n',
    'sorting: 0%, 0 rows, 0 rows/s\n',
    'writing: 8%, 1 000 rows, 0 rows/s\n',
    'writing: 100%, 12 000 rows, 1 091 rows/s\n',
  ]);
});
