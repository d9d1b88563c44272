/**
 * Dashboard accounts and keys through HTTP, as a user meets them: one-time
 * links, password rules, sign-in throttling, sessions (disable, password
 * change, expiry, sign-out), the audit log, organisation boundaries, and
 * creating, rolling and revoking keys. The test clock crosses the time limits.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Organisation } from '../../src/domain/access.ts';
import { createKey, createOrg, setPlan } from '../../src/services/access/admin.ts';
import { ADDRESS_FREE } from '../../src/services/dashboard/password-throttle.ts';
import { createUser, disableUser, newPasswordLink, setPasswordWithToken } from '../../src/services/dashboard/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'another long passphrase';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A browser without JavaScript, from one address: keeps the cookies the dashboard sets. */
class Visitor {
  readonly cookies = new Map<string, string>();
  private readonly app: FastifyInstance;
  private readonly address: string;
  /** Sent with every request (what a proxy in front adds). */
  private readonly extra: Record<string, string>;
  constructor(app: FastifyInstance, address = '192.0.2.1', extra: Record<string, string> = {}) {
    this.app = app;
    this.address = address;
    this.extra = extra;
  }
  async send(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...this.extra };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await this.app.inject({ method, url, headers, remoteAddress: this.address, payload: form && new URLSearchParams(form).toString() });
    for (const c of res.cookies as { name: string; value: string; expires?: Date }[]) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }
  get(url: string) {
    return this.send('GET', url);
  }
  /** Loads the page with the form, then posts it with the page's hidden fields. */
  async submit(pageUrl: string, action: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    const page = await this.get(pageUrl);
    const hiddenFields = Object.fromEntries([...page.body.matchAll(/type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    return this.send('POST', action, { ...hiddenFields, ...fields });
  }
  signIn(email: string, password = PASSWORD) {
    return this.submit('/dashboard/login', '/dashboard/login', { email, password });
  }
  async signedIn(): Promise<boolean> {
    return (await this.get('/dashboard/keys')).statusCode === 200;
  }
}

const alert = (res: LightMyRequestResponse) => /role="alert">([^<]*)</.exec(res.body)?.[1] ?? '';

describe('dashboard accounts over HTTP', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext();
  });
  afterEach(() => ctx.close());

  const addUser = async (email: string, org: Organisation = ctx.org) => {
    const { token } = await createUser(ctx.deps.admin, org, email);
    return setPasswordWithToken(ctx.deps.admin, token, PASSWORD);
  };
  const visitor = (address?: string) => new Visitor(ctx.app, address);
  const signedInAs = async (email: string, password = PASSWORD) => {
    const v = visitor();
    assert.equal((await v.signIn(email, password)).statusCode, 303);
    return v;
  };
  const setPassword = (v: Visitor, token: string, password: string, confirm = password) =>
    v.submit(`/dashboard/set-password?token=${token}`, '/dashboard/set-password', { password, confirm });
  /** Opens the link's page while it works; its form is sent later (once the link died meanwhile). */
  const openLink = async (token: string) => {
    const v = visitor();
    const page = await v.get(`/dashboard/set-password?token=${token}`);
    assert.equal(page.statusCode, 200, 'the link works when opened');
    const fields = Object.fromEntries([...page.body.matchAll(/type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    return (password: string) => v.send('POST', '/dashboard/set-password', { ...fields, password, confirm: password });
  };
  const api = async (key: string) => (await ctx.app.inject({ url: '/v1/codes?limit=1', headers: { authorization: `Bearer ${key}` } })).statusCode;
  const createKeyIn = async (v: Visitor, fields: Record<string, string> = {}) =>
    v.submit('/dashboard/keys', '/dashboard/keys', { name: 'k', mode: 'live', ...fields });
  const shownKey = (res: LightMyRequestResponse) =>
    /<textarea id="new-key"[^>]*>(svc_\w+)<\/textarea>/.exec(res.body)?.[1] ?? assert.fail(`no key shown: ${alert(res)}`);
  const keyId = async (key: string) => (await ctx.store.access.listKeys(ctx.org.id)).find((k) => key.startsWith(k.displayPrefix))!.id;

  test('the one-time link sets a password once, not after 24 hours, and not for a disabled user', async () => {
    const v = visitor();
    const { token } = await createUser(ctx.deps.admin, ctx.org, 'alice@example.com');
    const openedTwice = await openLink(token);
    const done = await setPassword(v, token, PASSWORD);
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, '/dashboard/login?done=password');
    assert.match((await v.get('/dashboard/login?done=password')).body, /Your password is set/);
    assert.equal((await v.signIn('alice@example.com')).statusCode, 303);

    const again = await openedTwice(NEW_PASSWORD);
    assert.equal(again.statusCode, 400);
    assert.match(alert(again), /not valid/);
    assert.equal((await visitor().signIn('alice@example.com', NEW_PASSWORD)).statusCode, 401, 'the used link changed nothing');

    const bob = await createUser(ctx.deps.admin, ctx.org, 'bob@example.com');
    const bobsForm = await openLink(bob.token);
    ctx.clock.advance(23 * HOUR);
    const fresh = await newPasswordLink(ctx.deps.admin, 'bob@example.com');
    ctx.clock.advance(HOUR);
    assert.match(alert(await bobsForm(PASSWORD)), /not valid/, 'expired after 24 hours');
    assert.equal((await setPassword(visitor(), fresh.token, PASSWORD)).statusCode, 303, 'a link 1 hour old works');

    const carol = await createUser(ctx.deps.admin, ctx.org, 'carol@example.com');
    const carolsForm = await openLink(carol.token);
    await disableUser(ctx.deps.admin, 'carol@example.com');
    assert.match(alert(await carolsForm(PASSWORD)), /not valid/);
    assert.equal((await visitor().signIn('carol@example.com')).statusCode, 401);
  });

  test("using one of a user's links voids the others, so an old printed link cannot reset the password", async () => {
    const first = await createUser(ctx.deps.admin, ctx.org, 'dave@example.com');
    const second = await newPasswordLink(ctx.deps.admin, 'dave@example.com');
    const firstForm = await openLink(first.token);
    assert.equal((await setPassword(visitor(), second.token, PASSWORD)).statusCode, 303);
    assert.match(alert(await firstForm(NEW_PASSWORD)), /not valid/);
    assert.equal((await visitor().signIn('dave@example.com', PASSWORD)).statusCode, 303, 'the password set through the used link stands');
  });

  test('changing the password in the dashboard voids the links printed before it', async () => {
    const { token } = await createUser(ctx.deps.admin, ctx.org, 'erin@example.com');
    assert.equal((await setPassword(visitor(), token, PASSWORD)).statusCode, 303);
    // A link printed later, its page opened while it still works, and sent once the password was changed.
    const sentLater = await openLink((await newPasswordLink(ctx.deps.admin, 'erin@example.com')).token);
    const erin = await signedInAs('erin@example.com');
    const changed = await erin.submit('/dashboard/password', '/dashboard/password', { current: PASSWORD, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    assert.equal(changed.statusCode, 200);
    assert.match(alert(await sentLater('someone else chose this')), /not valid/);
    assert.equal((await visitor().signIn('erin@example.com', NEW_PASSWORD)).statusCode, 303, 'the password chosen in the dashboard stands');
  });

  test('a key name holding an API key is refused on the form, and no key is made', async () => {
    await addUser('fay@example.com');
    const fay = await signedInAs('fay@example.com');
    const before = (await ctx.store.access.listKeys(ctx.org.id)).length;
    const leaked = `svc_live_${'Zz09'.repeat(8)}`;
    const res = await createKeyIn(fay, { name: `backup of ${leaked}` });
    assert.equal(res.statusCode, 400);
    assert.match(alert(res), /key name must not contain an API key/);
    assert.equal((await ctx.store.access.listKeys(ctx.org.id)).length, before);
    assert.ok(!(await fay.get('/dashboard/keys')).body.includes(leaked), 'the key is on no page');
  });

  test('a dead link says it is not valid when it is opened, before any password is typed; opening a good one does not use it up', async () => {
    const text = (res: LightMyRequestResponse) => res.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    const { token: used } = await createUser(ctx.deps.admin, ctx.org, 'erin@example.com');
    const sentLate = await openLink(used);
    assert.equal((await setPassword(visitor(), used, PASSWORD)).statusCode, 303);
    const expired = await createUser(ctx.deps.admin, ctx.org, 'frank@example.com');
    const disabled = await createUser(ctx.deps.admin, ctx.org, 'grace@example.com');
    await disableUser(ctx.deps.admin, 'grace@example.com');
    ctx.clock.advance(24 * HOUR);
    const fresh = await createUser(ctx.deps.admin, ctx.org, 'heidi@example.com');

    // What the form says when sent with the used link is what a dead link's page says at once.
    const postText = alert(await sentLate(NEW_PASSWORD));
    assert.match(postText, /^This link is not valid/);
    for (const [label, token] of [
      ['never issued', 'bogus'],
      ['used', used],
      ['expired', expired.token],
      ['of a disabled user', disabled.token],
      ['empty', ''],
    ]) {
      const opened = await visitor().get(`/dashboard/set-password?token=${token}`);
      assert.equal(opened.statusCode, 400, label);
      assert.ok(text(opened).includes(postText), `${label}: ${text(opened)}`);
      assert.doesNotMatch(opened.body, /type="password"/, `${label}: no password to type`);
    }

    const v = visitor();
    const opened = await v.get(`/dashboard/set-password?token=${fresh.token}`);
    assert.equal(opened.statusCode, 200);
    assert.match(opened.body, /type="password"/);
    assert.equal((await v.get(`/dashboard/set-password?token=${fresh.token}`)).statusCode, 200, 'opened twice, still good');
    assert.equal((await setPassword(v, fresh.token, PASSWORD)).statusCode, 303, 'opening the link did not use it up');
  });

  test('short passwords and mismatched confirmations are refused with a message', async () => {
    const { token } = await createUser(ctx.deps.admin, ctx.org, 'alice@example.com');
    const v = visitor();
    const short = await setPassword(v, token, 'elevenchars');
    assert.equal(short.statusCode, 400);
    assert.match(alert(short), /at least 12 characters/);
    const mismatch = await setPassword(v, token, PASSWORD, `${PASSWORD}!`);
    assert.equal(mismatch.statusCode, 400);
    assert.match(alert(mismatch), /not the same/);
    assert.equal((await setPassword(v, token, 'twelve chars')).statusCode, 303, 'the refusals did not use up the link');

    const signed = await signedInAs('alice@example.com', 'twelve chars');
    const change = (next: string, confirm = next) => signed.submit('/dashboard/password', '/dashboard/password', { current: 'twelve chars', next, confirm });
    assert.match(alert(await change('elevenchars')), /at least 12 characters/);
    assert.match(alert(await change(NEW_PASSWORD, PASSWORD)), /not the same/);
    assert.match(
      alert(await signed.submit('/dashboard/password', '/dashboard/password', { current: 'wrong current', next: NEW_PASSWORD, confirm: NEW_PASSWORD })),
      /current password is not correct/,
    );
    assert.equal((await visitor().signIn('alice@example.com', 'twelve chars')).statusCode, 303, 'the password did not change');
  });

  test('a wrong password, or an unknown email, gets a 401 page', async () => {
    await addUser('alice@example.com');
    for (const res of [await visitor().signIn('alice@example.com', 'not the password'), await visitor().signIn('nobody@example.com')]) {
      assert.equal(res.statusCode, 401);
      assert.match(alert(res), /email or the password is not correct/);
      assert.ok(!res.cookies.some((c) => c.name === 'cb_session'));
    }
  });

  test('wrong passwords from one address make that address wait (a 429 page with Retry-After), not the user at another', async () => {
    await addUser('alice@example.com');
    for (let i = 0; i < 5; i++) assert.equal((await visitor('203.0.113.7').signIn('alice@example.com', `wrong ${i}`)).statusCode, 401);
    const refused = await visitor('203.0.113.7').signIn('ALICE@example.com');
    assert.equal(refused.statusCode, 429, 'even the right password waits');
    assert.equal(refused.headers['retry-after'], '2');
    assert.match(alert(refused), /Too many wrong passwords\. Wait 2 seconds/);
    assert.equal((await visitor('198.51.100.7').signIn('alice@example.com')).statusCode, 303, 'the user at another address signs in');
    ctx.clock.advance(2000);
    assert.equal((await visitor('203.0.113.7').signIn('alice@example.com')).statusCode, 303, 'and from that address once the wait is over');
  });

  test('guesses at the current password on the change-password form wait like sign-ins: a 429 page with Retry-After', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    const change = (current: string) => v.submit('/dashboard/password', '/dashboard/password', { current, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    for (let i = 0; i < 5; i++) assert.match(alert(await change(`wrong ${i}`)), /current password is not correct/);
    const refused = await change(PASSWORD);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '2');
    assert.match(alert(refused), /Too many wrong passwords/);
    ctx.clock.advance(2000);
    assert.equal((await change(PASSWORD)).statusCode, 200);
    assert.equal((await visitor().signIn('alice@example.com', NEW_PASSWORD)).statusCode, 303, 'the password changed');
  });

  test('a disabled user is signed out and cannot sign in', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    await disableUser(ctx.deps.admin, 'alice@example.com');
    const res = await v.get('/dashboard/keys');
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/login');
    assert.equal((await visitor().signIn('alice@example.com')).statusCode, 401);
  });

  test('changing the password ends the other sessions and keeps this one', async () => {
    await addUser('alice@example.com');
    const here = await signedInAs('alice@example.com');
    const elsewhere = await signedInAs('alice@example.com');
    const res = await here.submit('/dashboard/password', '/dashboard/password', { current: PASSWORD, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /Your password was changed/);
    assert.ok(await here.signedIn(), 'this session continues');
    assert.equal((await createKeyIn(here)).statusCode, 200, 'and its forms still work');
    assert.ok(!(await elsewhere.signedIn()), 'the other session ended');
    assert.equal((await visitor().signIn('alice@example.com')).statusCode, 401, 'the old password no longer works');
    assert.equal((await visitor().signIn('alice@example.com', NEW_PASSWORD)).statusCode, 303);
  });

  test('a session lasts 12 hours, and signing out ends it', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    ctx.clock.advance(12 * HOUR - MINUTE);
    assert.ok(await v.signedIn());
    ctx.clock.advance(MINUTE);
    assert.ok(!(await v.signedIn()), 'expired after 12 hours');

    const w = await signedInAs('alice@example.com');
    const cookie = w.cookies.get('cb_session')!;
    const out = await w.submit('/dashboard/keys', '/dashboard/logout', {});
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/dashboard/login');
    assert.ok(!w.cookies.has('cb_session'), 'the cookie is cleared');
    w.cookies.set('cb_session', cookie);
    assert.ok(!(await w.signedIn()), 'the old cookie no longer works');
  });

  test('the audit log records every change with who made it', async () => {
    const { token } = await createUser(ctx.deps.admin, ctx.org, 'alice@example.com');
    await setPassword(visitor(), token, PASSWORD);
    const v = await signedInAs('alice@example.com');
    const key = shownKey(await createKeyIn(v, { name: 'audited key' }));
    await v.submit(`/dashboard/keys/${await keyId(key)}/revoke`, `/dashboard/keys/${await keyId(key)}/revoke`, {});
    await v.submit('/dashboard/password', '/dashboard/password', { current: PASSWORD, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    const rows = [
      ...(await v.get('/dashboard/audit')).body.matchAll(
        /<tr>\s*<td[^>]*><time[^>]*>[^<]*<\/time><\/td>\s*<td[^>]*>([^<]*)<\/td>\s*<td[^>]*>([^<]*)<\/td>\s*<td[^>]*>([^<]*)<\/td>\s*<\/tr>/g,
      ),
    ];
    assert.deepEqual(
      rows.map(([, who, what, on]) => [who, what, on!.replace(/ \(.*\)$/, '')]),
      [
        ['alice@example.com', 'changed password', 'alice@example.com'],
        ['alice@example.com', 'revoked key', 'audited key'],
        ['alice@example.com', 'created key', 'audited key'],
        ['alice@example.com', 'set password', 'alice@example.com'],
        ['operator', 'created user', 'alice@example.com'],
        // The test's own key, made through the key service like every other, is recorded as well.
        ['operator', 'created key', 'test key'],
      ],
    );
  });

  test("a user sees only their organisation's keys and audit log, and cannot revoke another's key", async () => {
    const globex = await createOrg(ctx.deps.admin, 'globex', 'test-all');
    await addUser('alice@example.com');
    await addUser('bob@example.com', globex);
    const bob = await signedInAs('bob@example.com');
    const bobsKey = shownKey(await createKeyIn(bob, { name: 'globex secret' }));
    const other = await createKey(ctx.deps.admin, globex, 'live', 'globex backup');

    const alice = await signedInAs('alice@example.com');
    const keys = (await alice.get('/dashboard/keys')).body;
    assert.match(keys, /test key/, "alice's organisation's key is listed");
    for (const hidden of ['globex', bobsKey.slice(0, 13), other.info.displayPrefix]) assert.ok(!keys.includes(hidden), hidden);
    const audit = (await alice.get('/dashboard/audit')).body;
    assert.match(audit, /alice@example\.com/);
    for (const hidden of ['bob@example.com', 'globex']) assert.ok(!audit.includes(hidden), hidden);

    assert.equal((await alice.get(`/dashboard/keys/${other.info.id}/revoke`)).statusCode, 404);
    const forged = await alice.submit('/dashboard/keys', `/dashboard/keys/${other.info.id}/revoke`, {});
    assert.equal(forged.statusCode, 404);
    assert.equal(await api(other.key), 200, "the other organisation's key still works");
  });

  test('resubmitting the create-key form creates no second key', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    const page = await v.get('/dashboard/keys');
    const fields = Object.fromEntries([...page.body.matchAll(/type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const first = await v.send('POST', '/dashboard/keys', { ...fields, name: 'only once', mode: 'live' });
    const key = shownKey(first);
    const second = await v.send('POST', '/dashboard/keys', { ...fields, name: 'only once', mode: 'live' });
    assert.equal(second.statusCode, 409);
    assert.ok(!second.body.includes(key), 'the key is not shown again');
    assert.equal((await v.get('/dashboard/keys')).body.match(/<td[^>]*>only once<\/td>/g)?.length, 1);
  });

  test('resubmitting the roll form makes no second successor; rolling again from a fresh page does', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    const old = shownKey(await createKeyIn(v, { name: 'rolled once' }));
    const url = `/dashboard/keys/${await keyId(old)}/roll`;
    const fields = Object.fromEntries([...(await v.get(url)).body.matchAll(/type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const successor = shownKey(await v.send('POST', url, { ...fields, grace: '24h' }));
    const replay = await v.send('POST', url, { ...fields, grace: '24h' });
    assert.equal(replay.statusCode, 409);
    assert.match(replay.body, /This form was already sent/);
    assert.doesNotMatch(replay.body, /svc_live_\w{32}/, 'no key is shown');
    const listed = () => ctx.store.access.listKeys(ctx.org.id).then((keys) => keys.filter((k) => k.name === 'rolled once').length);
    assert.equal(await listed(), 2, 'the old key and one successor');
    assert.equal(await api(successor), 200);

    // A deliberate second roll (a new confirmation page) is what was asked.
    assert.match(shownKey(await v.submit(url, url, { grace: '24h' })), /^svc_live_/);
    assert.equal(await listed(), 3);
  });

  test('the banner of a leaked key that expires by itself says to roll it; once rolled, to revoke it when its successor is in place', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    const key = shownKey(await createKeyIn(v, { name: 'quarterly', expires: '90d' }));
    assert.equal((await ctx.app.inject({ url: `/v1/codes?api_key=${key}` })).statusCode, 400);
    const banner = async () => /<section class="banner"[\s\S]*?<\/section>/.exec((await v.get('/dashboard/keys')).body)?.[0].replace(/<[^>]+>/g, '') ?? '';
    const roll = `/dashboard/keys/${await keyId(key)}/roll`;
    assert.match(await banner(), new RegExp(`Key ${key.slice(0, 13)}… \\(quarterly\\) was sent in a URL on .* UTC from [\\d.]+: roll it\\.`));
    assert.match((await v.get('/dashboard/keys')).body, new RegExp(`<a href="${roll}">roll it</a>`));
    assert.doesNotMatch(await banner(), /successor/, 'there is no successor yet');

    const successor = shownKey(await v.submit(roll, roll, { grace: '24h' }));
    assert.match(await banner(), new RegExp(`it stops working at .* UTC\\. Revoke it now once its successor ${successor.slice(0, 13)}… is in place\\.`));
  });

  test('a date given while Expires is not "On a date" is refused on the form, and no key is made', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    const count = async () => (await ctx.store.access.listKeys(ctx.org.id)).length;
    const before = await count();
    for (const expires of ['never', '30d']) {
      const refused = await createKeyIn(v, { name: 'ambiguous', expires, expires_on: '2027-01-31' });
      assert.equal(refused.statusCode, 400, expires);
      assert.match(
        alert(refused).replaceAll('&quot;', '"'),
        /^A date was given, but Expires is not "On a date…"\. Choose "On a date…" to end the key on that date, or clear the date\.$/,
      );
      assert.match(refused.body, /<form method="post" action="\/dashboard\/keys"/, 'the form is shown again');
    }
    assert.equal(await count(), before, 'no key was made');

    const dated = shownKey(await createKeyIn(v, { name: 'dated', expires: 'date', expires_on: '2027-01-31' }));
    assert.equal((await ctx.store.access.getKey(await keyId(dated)))!.expiresAt, '2027-02-01T00:00:00.000Z', 'through that UTC day');
  });

  test('a test key can be created only when the plan allows test keys', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    assert.match((await v.get('/dashboard/keys')).body, /name="mode" value="test"/);
    assert.match(shownKey(await createKeyIn(v, { mode: 'test' })), /^svc_test_/);

    await setPlan(ctx.deps.admin, { name: 'test-all', endpoints: ['codes.list'], ratePerMinute: 100, monthlyQuota: null, testKeysAllowed: false });
    const form = (await v.get('/dashboard/keys')).body;
    assert.doesNotMatch(form, /value="test"/, 'the form offers live keys only');
    assert.match(form, /does not include test keys/);
    const before = (await ctx.store.access.listKeys(ctx.org.id)).length;
    const forged = await createKeyIn(v, { mode: 'test' });
    assert.equal(forged.statusCode, 400);
    assert.match(alert(forged), /does not allow test keys/);
    assert.equal((await ctx.store.access.listKeys(ctx.org.id)).length, before);
  });

  test('a key revoked in the dashboard is refused from the very next API request', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    const key = shownKey(await createKeyIn(v, { name: 'short lived' }));
    assert.equal(await api(key), 200);
    const url = `/dashboard/keys/${await keyId(key)}/revoke`;
    const confirm = await v.get(url);
    assert.match(confirm.body, /Revoke <strong>short lived<\/strong>/);
    const csrf = /name="_csrf" value="([^"]*)"/.exec(confirm.body)![1]!;
    const revoked = await v.send('POST', url, { _csrf: csrf });
    assert.equal(revoked.statusCode, 303);
    assert.equal(revoked.headers.location, '/dashboard/keys');
    const refused = await ctx.app.inject({ url: '/v1/codes?limit=1', headers: { authorization: `Bearer ${key}` } });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().error.code, 'invalid_api_key');
    assert.match((await v.get('/dashboard/keys')).body, /<td[^>]*>short lived<\/td>[\s\S]*?class="state revoked"/);

    // The same form sent again (a double click) changes nothing more, and the audit log says it once.
    assert.equal((await v.send('POST', url, { _csrf: csrf })).statusCode, 303);
    assert.equal((await v.get('/dashboard/audit')).body.match(/revoked key/g)?.length, 1);
  });

  test('revoking a key twice, even from two tabs at once, records one revocation and says the key was already revoked', async () => {
    await addUser('alice@example.com');
    const v = await signedInAs('alice@example.com');
    const key = shownKey(await createKeyIn(v, { name: 'twice' }));
    const url = `/dashboard/keys/${await keyId(key)}/revoke`;
    const csrf = /name="_csrf" value="([^"]*)"/.exec((await v.get(url)).body)![1]!;
    const both = await Promise.all([v.send('POST', url, { _csrf: csrf }), v.send('POST', url, { _csrf: csrf })]);
    assert.deepEqual(
      both.map((r) => r.statusCode),
      [303, 303],
    );
    assert.equal((await v.get('/dashboard/audit')).body.match(/revoked key/g)?.length, 1, 'one revocation in the audit log');
    const again = await v.send('POST', url, { _csrf: csrf });
    assert.equal(again.statusCode, 303);
    const notice = /role="status">([^<]*)</.exec((await v.get(again.headers.location as string)).body)?.[1] ?? '';
    assert.match(notice, /^The key twice \(svc_live_\w{4}…\) was already revoked on \d{4}-\d\d-\d\d \d\d:\d\d UTC; nothing changed\.$/);
    // The confirmation page of a revoked key leads to the same notice.
    const confirm = await v.get(url);
    assert.equal(confirm.statusCode, 303);
    assert.match((await v.get(confirm.headers.location as string)).body, /role="status">The key twice/);
    assert.equal((await v.get('/dashboard/audit')).body.match(/revoked key/g)?.length, 1);
  });
});

describe('behind a proxy the operator names (TRUST_PROXY)', () => {
  const PROXY = '10.0.0.1';
  let ctx: TestContext;
  afterEach(() => ctx.close());
  const open = async (trustProxy: string | null) => {
    ctx = await createTestContext(trustProxy === null ? {} : { TRUST_PROXY: trustProxy });
    const { token } = await createUser(ctx.deps.admin, ctx.org, 'bob@example.com');
    await setPasswordWithToken(ctx.deps.admin, token, PASSWORD);
  };
  /** A browser whose requests reach the service through the proxy, over HTTPS, from this client address. */
  const throughProxy = (client: string) => new Visitor(ctx.app, PROXY, { 'x-forwarded-for': client, 'x-forwarded-proto': 'https' });
  const sessionCookie = (res: LightMyRequestResponse) => {
    const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('cb_session='));
    return header ?? assert.fail(`no session cookie: ${res.statusCode}`);
  };

  test('over HTTPS at the proxy the session cookie is Secure and HSTS is sent; a proxy not named is not believed', async () => {
    await open(PROXY);
    const signedIn = await throughProxy('203.0.113.9').signIn('bob@example.com');
    assert.equal(signedIn.statusCode, 303);
    assert.match(sessionCookie(signedIn), /; Secure/);
    assert.equal(signedIn.headers['strict-transport-security'], 'max-age=31536000');

    const spoofed = await new Visitor(ctx.app, '198.51.100.7', { 'x-forwarded-proto': 'https' }).signIn('bob@example.com');
    assert.equal(spoofed.statusCode, 303);
    assert.doesNotMatch(sessionCookie(spoofed), /Secure/, 'a peer that is not the proxy cannot claim HTTPS');
    assert.equal(spoofed.headers['strict-transport-security'], undefined);
  });

  test('wrong passwords from one client behind the proxy make that client wait, not every user behind it', async () => {
    await open(PROXY);
    for (let i = 0; i <= ADDRESS_FREE; i++) await throughProxy('203.0.113.9').signIn(`nobody${i}@example.com`, `wrong ${i}`);
    assert.equal((await throughProxy('203.0.113.9').signIn('bob@example.com')).statusCode, 429, 'the guessing client waits');
    assert.equal((await throughProxy('203.0.113.10').signIn('bob@example.com')).statusCode, 303, 'another client behind the same proxy does not');
  });

  test('without TRUST_PROXY, forwarded headers are not believed: everyone behind a proxy is the proxy', async () => {
    await open(null);
    const signedIn = await throughProxy('203.0.113.9').signIn('bob@example.com');
    assert.doesNotMatch(sessionCookie(signedIn), /Secure/);
    for (let i = 0; i <= ADDRESS_FREE; i++) await throughProxy('203.0.113.9').signIn(`nobody${i}@example.com`, `wrong ${i}`);
    assert.equal((await throughProxy('203.0.113.10').signIn('bob@example.com')).statusCode, 429);
  });
});
