/**
 * TurnLoad (src/store/sqlite/turn-load.ts), which sends a search to the
 * reader thread only when others search at the same time: one call per turn
 * of the event loop is a lone client; several in a turn, or right after a
 * turn that had several, is load.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { TurnLoad } from '../../src/store/sqlite/turn-load.ts';

test('one call a turn is a lone client; a second call in the same turn, and the turn after a busy one, are load', async () => {
  const load = new TurnLoad();
  const lone: boolean[] = [];
  for (let i = 0; i < 5; i++) {
    lone.push(load.note());
    await nextTurn();
  }
  assert.deepEqual(lone, [false, false, false, false, false]);

  assert.deepEqual([load.note(), load.note(), load.note()], [false, true, true], 'three in one turn: the first cannot know yet');
  await nextTurn();
  assert.equal(load.note(), true, 'the turn after a busy one');
  await nextTurn();
  assert.equal(load.note(), false, 'a lone call again once a turn had one');
  // Turns without calls in between do not count as quiet ones.
  load.note();
  load.note();
  for (let i = 0; i < 3; i++) await nextTurn();
  assert.equal(load.note(), true);
});
