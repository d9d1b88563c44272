/**
 * The throttling of password guesses (sign-in and change-password), on a real
 * SQLite store with the clock injected: growing delays by account and
 * address instead of a lock-out, spraying and many-address guessing slowed
 * down, and the real user at their own address never kept out.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { User } from '../../src/store/dashboard-store.ts';
import { InvalidRequest } from '../../src/errors.ts';
import { ACCOUNT_CAP_S, backoffSeconds, PAIR_CAP_S, PasswordAttemptsThrottled } from '../../src/services/dashboard/password-throttle.ts';
import { changePassword, createUser, setPasswordWithToken, signIn } from '../../src/services/dashboard/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

const PASSWORD = 'correct horse battery staple';
const ALICE = 'alice@example.com';
const HOME = '198.51.100.7';
const ATTACKER = '203.0.113.9';

describe('password guesses are throttled, never locked out', () => {
  let ctx: TestContext;
  let alice: User;
  beforeEach(async () => {
    ctx = await createTestContext();
    const { token } = await createUser(ctx.deps.admin, ctx.org, ALICE);
    await setPasswordWithToken(ctx.deps.admin, token, PASSWORD);
    alice = (await ctx.store.dashboard.getUserByEmail(ALICE))!;
  });
  afterEach(() => ctx.close());

  const seconds = (s: number) => ctx.clock.advance(s * 1000);

  /** 'ok', 'wrong', or 'wait N' (the Retry-After of a refusal). */
  async function attempt(address: string, password: string, email = ALICE): Promise<string> {
    try {
      return (await signIn(ctx.deps.admin, email, password, address)) ? 'ok' : 'wrong';
    } catch (error) {
      if (error instanceof PasswordAttemptsThrottled) return `wait ${error.retryAfterSeconds}`;
      throw error;
    }
  }

  /** A wrong guess made as soon as the address may make one. */
  async function guessWhenAllowed(address: string, email = ALICE): Promise<void> {
    for (;;) {
      const result = await attempt(address, 'a wrong guess', email);
      if (result === 'wrong') return;
      seconds(Number(result.slice('wait '.length)));
    }
  }

  test('the delay grows as 2^(n−free) seconds, capped', () => {
    assert.deepEqual(
      [0, 4, 5, 6, 7, 13, 14, 40].map((n) => backoffSeconds(n, 4, PAIR_CAP_S)),
      [0, 0, 2, 4, 8, 512, 900, 900],
    );
  });

  test('one address at one account: from the 5th failure on, waits of 2, 4, 8 … s up to 15 minutes; the right password passes once the wait is over', async () => {
    for (let i = 0; i < 5; i++) assert.equal(await attempt(ATTACKER, `wrong ${i}`), 'wrong', `failure ${i + 1}`);
    const waits: number[] = [];
    for (let n = 5; n <= 14; n++) {
      const refused = await attempt(ATTACKER, PASSWORD);
      assert.match(refused, /^wait \d+$/, `after ${n} failures even the right password waits`);
      waits.push(Number(refused.slice(5)));
      seconds(waits.at(-1)! - 1);
      assert.match(await attempt(ATTACKER, PASSWORD), /^wait 1$/, 'one second before the end');
      seconds(1);
      if (n < 14) assert.equal(await attempt(ATTACKER, `wrong ${n}`), 'wrong');
    }
    assert.deepEqual(waits, [2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
    assert.equal(await attempt(ATTACKER, PASSWORD), 'ok');
  });

  test('an attacker at another address never keeps the real user out of their own address; elsewhere a right password passes once the account delay is over', async () => {
    assert.equal(await attempt(HOME, PASSWORD), 'ok', 'the user signs in from home once');
    for (let i = 0; i < 12; i++) await guessWhenAllowed(ATTACKER);
    assert.match(await attempt(ATTACKER, PASSWORD), /^wait /, 'the attacker waits');
    assert.equal(await attempt(HOME, PASSWORD), 'ok', 'at once, right after the latest guess');

    // From an address the account never signed in from, the account-wide backoff applies, and ends.
    const phone = '192.0.2.44';
    const refused = await attempt(phone, PASSWORD);
    assert.match(refused, /^wait \d+$/);
    const wait = Number(refused.slice(5));
    assert.ok(wait > 0 && wait <= ACCOUNT_CAP_S, `waits ${wait} s`);
    seconds(wait);
    assert.equal(await attempt(phone, PASSWORD), 'ok');
  });

  test('one account guessed from many addresses: from the 11th failure on, the account waits', async () => {
    for (let i = 0; i < 10; i++) assert.equal(await attempt(`192.0.2.${i}`, 'wrong'), 'wrong');
    assert.equal(await attempt('192.0.2.100', 'wrong'), 'wrong', 'the 11th failure is still checked');
    const waits: string[] = [];
    for (let i = 0; i < 3; i++) {
      waits.push(await attempt(`192.0.2.${200 + i}`, 'wrong'));
      seconds(Number(waits.at(-1)!.slice(5)));
      assert.equal(await attempt(`192.0.2.${210 + i}`, 'wrong'), 'wrong');
    }
    assert.deepEqual(waits, ['wait 2', 'wait 4', 'wait 8']);
  });

  test('spraying: one address trying many accounts waits from the 21st failure on, longer each time; other addresses are not held up', async () => {
    for (let i = 0; i < 21; i++) assert.equal(await attempt(ATTACKER, 'Password1!', `user${i}@example.com`), 'wrong');
    const waits: string[] = [];
    for (let i = 21; i < 24; i++) {
      waits.push(await attempt(ATTACKER, 'Password1!', `user${i}@example.com`));
      seconds(Number(waits.at(-1)!.slice(5)));
      assert.equal(await attempt(ATTACKER, 'Password1!', `user${i}@example.com`), 'wrong');
    }
    assert.deepEqual(waits, ['wait 2', 'wait 4', 'wait 8']);
    assert.equal(await attempt('192.0.2.1', PASSWORD), 'ok');
  });

  test('guesses sent all at once get the free tries only: 5 from one address, 11 from many', async () => {
    const fromOne = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(ATTACKER, `guess ${i}`)));
    assert.equal(fromOne.filter((r) => r === 'wrong').length, 5, String(fromOne));
    assert.equal(fromOne.filter((r) => r.startsWith('wait')).length, 7, String(fromOne));

    const bob = 'bob@example.com';
    const fromMany = await Promise.all(Array.from({ length: 14 }, (_, i) => attempt(`192.0.2.${i}`, `guess ${i}`, bob)));
    assert.equal(fromMany.filter((r) => r === 'wrong').length, 11, String(fromMany));
  });

  test('failures are forgotten after a day', async () => {
    for (let i = 0; i < 6; i++) await guessWhenAllowed(ATTACKER);
    assert.match(await attempt(ATTACKER, PASSWORD), /^wait /);
    seconds(24 * 60 * 60);
    assert.equal(await attempt(ATTACKER, PASSWORD), 'ok');
  });

  test('guesses at the current password on the change-password form are throttled like sign-ins, and share their count', async () => {
    const change = async (current: string, address = HOME): Promise<string> => {
      try {
        await changePassword(ctx.deps.admin, alice, current, 'a brand new passphrase', address);
        return 'changed';
      } catch (error) {
        if (error instanceof PasswordAttemptsThrottled) return `wait ${error.retryAfterSeconds}`;
        if (error instanceof InvalidRequest) return 'wrong';
        throw error;
      }
    };
    for (let i = 0; i < 5; i++) assert.equal(await change(`wrong ${i}`), 'wrong');
    assert.equal(await change(PASSWORD), 'wait 2', 'even the right current password waits');
    assert.equal(await attempt(HOME, PASSWORD), 'wait 2', 'and so does a sign-in from that address');
    assert.equal(await attempt('192.0.2.8', PASSWORD), 'ok', 'another address is not held up');
    seconds(2);
    assert.equal(await change('wrong again'), 'wrong');
    assert.equal(await change(PASSWORD), 'wait 4');
    seconds(4);
    assert.equal(await change(PASSWORD), 'changed');
  });
});
