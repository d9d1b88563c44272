/**
 * The dashboard's protections, through HTTP: security headers and a strict
 * CSP on every page, the session cookie's attributes (Secure over a real TLS
 * listener), sign-in required, CSRF tokens on every form, escaping of names
 * and emails, and no API key ever in a URL.
 */
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders, RequestListener } from 'node:http';
import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createUser, setPasswordWithToken } from '../../src/services/dashboard/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

const PASSWORD = 'correct horse battery staple';
const XSS = '<script>alert(1)</script>';
const NASTY_EMAIL = `"${XSS}@x.example`;

/** A browser without JavaScript: keeps the cookies the dashboard sets and remembers every response. */
class Visitor {
  readonly cookies = new Map<string, string>();
  readonly seen: LightMyRequestResponse[] = [];
  private readonly app: FastifyInstance;
  constructor(app: FastifyInstance) {
    this.app = app;
  }
  get(url: string) {
    return this.send('GET', url);
  }
  async send(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await this.app.inject({ method, url, headers, payload: form && new URLSearchParams(form).toString() });
    for (const c of res.cookies as { name: string; value: string; expires?: Date }[]) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    this.seen.push(res);
    return res;
  }
  post(url: string, form: Record<string, string>) {
    return this.send('POST', url, form);
  }
}

const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1] ?? assert.fail(`no ${name} field`);

async function signIn(v: Visitor, email: string): Promise<LightMyRequestResponse> {
  const form = await v.get('/dashboard/login');
  const res = await v.post('/dashboard/login', { _csrf: hidden(form.body, '_csrf'), email, password: PASSWORD });
  assert.equal(res.statusCode, 303, res.body);
  return res;
}

async function createKeyIn(v: Visitor, name: string, mode = 'live'): Promise<{ key: string; id: string }> {
  const form = await v.get('/dashboard/keys');
  const res = await v.post('/dashboard/keys', { _csrf: hidden(form.body, '_csrf'), nonce: hidden(form.body, 'nonce'), name, mode });
  assert.equal(res.statusCode, 200, res.body);
  const key = /<textarea id="new-key"[^>]*>(svc_(?:live|test)_\w+)<\/textarea>/.exec(res.body)?.[1] ?? assert.fail('no key on the page');
  const row = (await v.get('/dashboard/keys')).body.split('<tr>').find((r) => r.includes(`<code>${key.slice(0, 13)}…</code>`));
  const id = /\/dashboard\/keys\/(key_\w+)\/revoke/.exec(row ?? '')?.[1] ?? assert.fail('the new key is not listed');
  return { key, id };
}

function assertProtectiveHeaders(res: LightMyRequestResponse, what: string): void {
  assert.match(String(res.headers['content-type']), /^text\/html/, what);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(res.headers['x-frame-options'], 'DENY', what);
  assert.equal(res.headers['referrer-policy'], 'no-referrer', what);
  assert.equal(res.headers['cache-control'], 'no-store', what);
  const csp = String(res.headers['content-security-policy'] ?? assert.fail(`${what}: no Content-Security-Policy`));
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  );
  for (const [name, sources] of directives) {
    for (const s of sources) assert.ok(["'self'", "'none'"].includes(s), `${what}: ${name} allows ${s}`);
  }
  assert.deepEqual(directives.get('default-src'), ["'none'"], what);
  assert.deepEqual(directives.get('frame-ancestors'), ["'none'"], what);
  // The page itself must not need what the policy forbids: no inline code, nothing from elsewhere.
  assert.doesNotMatch(res.body, /<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=/i, `${what}: inline script or style`);
  for (const [, url] of res.body.matchAll(/\b(?:src|href|action)="([^"]*)"/g)) assert.match(url!, /^\/(?!\/)/, `${what}: ${url}`);
}

describe('dashboard security over HTTP', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await createTestContext();
    for (const email of ['alice@example.com', 'bob@example.com', NASTY_EMAIL]) {
      const { token } = await createUser(ctx.deps.admin, ctx.org, email);
      await setPasswordWithToken(ctx.deps.admin, token, PASSWORD);
    }
  });
  after(() => ctx.close());

  const keyWorks = async (key: string) => (await ctx.app.inject({ url: '/v1/codes?limit=1', headers: { authorization: `Bearer ${key}` } })).statusCode === 200;

  test('every page, error page included, has a strict CSP and the protective headers', async () => {
    const anon = new Visitor(ctx.app);
    await anon.get('/dashboard/set-password?token=whatever');
    await anon.post('/dashboard/login', { _csrf: 'forged', email: 'x@example.com', password: 'x' });
    const form = await anon.get('/dashboard/login');
    await anon.post('/dashboard/login', { _csrf: hidden(form.body, '_csrf'), email: 'alice@example.com', password: 'not the password' });
    await anon.get('/dashboard/no-such-page');
    const multipart = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/login',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--',
    });
    const v = new Visitor(ctx.app);
    await signIn(v, 'alice@example.com');
    for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/audit', '/dashboard/password']) await v.get(path);
    const { id } = await createKeyIn(v, 'headers');
    await v.get(`/dashboard/keys/${id}/revoke`);
    await v.post('/dashboard/keys', { name: 'no token' });
    const pages = [...anon.seen, ...v.seen, multipart].filter((r) => r.statusCode !== 303);
    assert.deepEqual([...new Set(pages.map((r) => r.statusCode))].sort(), [200, 400, 401, 403, 404, 415]);
    for (const res of pages) assertProtectiveHeaders(res, `${res.statusCode} ${res.body.match(/<title>(.*)<\/title>/)?.[1]}`);
  });

  test("what the app refuses before the dashboard runs gets the dashboard's own error page: its status, HTML, a Request-Id", async () => {
    const key = `svc_live_${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE'}`;
    const v = new Visitor(ctx.app);
    await signIn(v, 'alice@example.com');
    const form = await v.get('/dashboard/keys');
    const refused = [
      await v.get(`/dashboard/login?x=${key}`),
      await v.get(`/dashboard?next=${encodeURIComponent(key)}`),
      await v.get(`/dashboard/keys?${key}=1`),
      await v.post(`/dashboard/keys?x=${key}`, { _csrf: hidden(form.body, '_csrf'), nonce: hidden(form.body, 'nonce'), name: 'never made' }),
      await ctx.app.inject({ url: `/dashboard/login?x=${key}` }),
      await ctx.app.inject({ url: '/dashboard/%FF' }),
      await ctx.app.inject({ url: `/dashboard/keys/${'x'.repeat(3000)}/revoke` }),
    ];
    for (const res of refused) {
      const what = `${(res.raw.req.url ?? '').slice(0, 40)}: ${res.body.slice(0, 200)}`;
      assert.equal(res.statusCode, 400, what);
      assertProtectiveHeaders(res, what);
      assert.match(String(res.headers['request-id']), /^req_[0-9a-f]{32}$/, what);
      assert.ok(!res.body.includes(key.slice(9)), `${what}: the key is echoed`);
    }
    assert.ok((await v.get('/dashboard/keys')).body.includes('never made') === false, 'the refused form created a key');
  });

  test('the session cookie is HttpOnly, SameSite=Lax, scoped to /dashboard and not Secure over http', async () => {
    const res = await signIn(new Visitor(ctx.app), 'alice@example.com');
    const session = res.cookies.find((c) => c.name === 'cb_session') ?? assert.fail('no session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
    assert.equal(session.path, '/dashboard');
    assert.ok(!session.secure, 'a Secure cookie would never come back over http');
    assert.equal(res.headers['strict-transport-security'], undefined);
  });

  test('over https the cookies are Secure and HSTS is sent', async () => {
    const server = createServer({ key: TLS_KEY, cert: TLS_CERT }, ctx.app.server.listeners('request')[0] as RequestListener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const req = httpsRequest({ host: '127.0.0.1', port, method, path, headers, rejectUnauthorized: false }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        });
        req.on('error', reject).end(body);
      });
    try {
      const form = await send('GET', '/dashboard/login');
      assert.match(String(form.headers['strict-transport-security']), /max-age=\d+/);
      const csrfCookie = form.headers['set-cookie']![0]!;
      assert.match(csrfCookie, /; Secure/);
      const body = new URLSearchParams({ _csrf: hidden(form.body, '_csrf'), email: 'alice@example.com', password: PASSWORD }).toString();
      const signedIn = await send('POST', '/dashboard/login', { cookie: csrfCookie.split(';')[0]!, 'content-type': 'application/x-www-form-urlencoded' }, body);
      assert.equal(signedIn.status, 303);
      const session = signedIn.headers['set-cookie']!.find((c) => c.startsWith('cb_session=')) ?? assert.fail('no session cookie');
      for (const attribute of ['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/dashboard'])
        assert.ok(session.split('; ').includes(attribute), `${attribute} in ${session}`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('pages need a session: without one (or with a made-up one) they redirect to the sign-in page', async () => {
    const { id } = await createKeyIn(await signedInAs('bob@example.com'), 'bob key');
    const anon = new Visitor(ctx.app);
    anon.cookies.set('cb_session', 'made-up-session-token');
    for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/audit', '/dashboard/password', `/dashboard/keys/${id}/revoke`]) {
      const res = await anon.get(path);
      assert.equal(res.statusCode, 303, path);
      assert.equal(res.headers.location, '/dashboard/login', path);
    }
    const before = (await ctx.store.access.listKeys(ctx.org.id)).length;
    assert.equal((await anon.post('/dashboard/keys', { name: 'anon', nonce: 'n', _csrf: 'x' })).headers.location, '/dashboard/login');
    assert.equal((await anon.post(`/dashboard/keys/${id}/revoke`, { _csrf: 'x' })).headers.location, '/dashboard/login');
    assert.equal((await ctx.store.access.listKeys(ctx.org.id)).length, before);
    assert.equal((await ctx.store.access.getKey(id))!.revokedAt, null);
  });

  async function signedInAs(email: string): Promise<Visitor> {
    const v = new Visitor(ctx.app);
    await signIn(v, email);
    return v;
  }

  test('a form posted without its own CSRF token is refused with 403 and changes nothing', async () => {
    const alice = await signedInAs('alice@example.com');
    const bob = await signedInAs('bob@example.com');
    const { key, id } = await createKeyIn(alice, 'guarded');
    const form = await alice.get('/dashboard/keys');
    const bobsToken = hidden((await bob.get('/dashboard/keys')).body, '_csrf');
    const before = (await ctx.store.access.listKeys(ctx.org.id)).length;
    for (const token of [undefined, '', 'x'.repeat(32), 'é'.repeat(32), bobsToken]) {
      const csrf: Record<string, string> = token === undefined ? {} : { _csrf: token };
      const label = `token ${JSON.stringify(token)}`;
      assert.equal((await alice.post('/dashboard/keys', { ...csrf, name: 'sneaky', mode: 'live', nonce: hidden(form.body, 'nonce') })).statusCode, 403, label);
      assert.equal((await alice.post(`/dashboard/keys/${id}/revoke`, csrf)).statusCode, 403, label);
      assert.equal(
        (await alice.post('/dashboard/password', { ...csrf, current: PASSWORD, next: 'a whole new password', confirm: 'a whole new password' })).statusCode,
        403,
        label,
      );
      assert.equal((await alice.post('/dashboard/logout', csrf)).statusCode, 403, label);
    }
    assert.equal((await ctx.store.access.listKeys(ctx.org.id)).length, before, 'no key was created');
    assert.ok(await keyWorks(key), 'the key was not revoked');
    assert.equal((await alice.get('/dashboard/keys')).statusCode, 200, 'still signed in');
    await signedInAs('alice@example.com'); // the password did not change
  });

  test('the sign-in and set-password forms need their double-submit token', async () => {
    const v = new Visitor(ctx.app);
    const token = hidden((await v.get('/dashboard/login')).body, '_csrf');
    const login = (form: Record<string, string>, who = v) => who.post('/dashboard/login', { email: 'alice@example.com', password: PASSWORD, ...form });
    const refused = [await login({}), await login({ _csrf: 'x'.repeat(token.length) }), await login({ _csrf: 'é'.repeat(token.length) })];
    for (const res of [...refused, await login({ _csrf: token }, new Visitor(ctx.app))]) {
      assert.equal(res.statusCode, 403);
      assert.ok(!res.cookies.some((c) => c.name === 'cb_session' && c.value !== ''), 'no session without the token');
    }
    const { token: link } = await createUser(ctx.deps.admin, ctx.org, 'carol@example.com');
    await v.get(`/dashboard/set-password?token=${link}`);
    const set = (form: Record<string, string>) => v.post('/dashboard/set-password', { token: link, password: PASSWORD, confirm: PASSWORD, ...form });
    assert.equal((await set({})).statusCode, 403);
    assert.equal((await set({ _csrf: 'é'.repeat(32) })).statusCode, 403);
    const expired = await set({ _csrf: 'x'.repeat(32) });
    assert.equal(expired.statusCode, 403);
    assert.match(expired.body, /This form has expired/);
    const ok = await set({ _csrf: hidden(expired.body, '_csrf') });
    assert.equal(ok.statusCode, 303, 'the refused posts did not use up the link');
    await signedInAs('carol@example.com');
  });

  test('two sign-in forms open in one browser both sign in', async () => {
    const v = new Visitor(ctx.app);
    const first = hidden((await v.get('/dashboard/login')).body, '_csrf');
    const second = hidden((await v.get('/dashboard/login')).body, '_csrf');
    const res = await v.post('/dashboard/login', { _csrf: first, email: 'alice@example.com', password: PASSWORD });
    assert.equal(res.statusCode, 303, 'the older form signs in');
    assert.equal(second, first);
    // Another browser gets a token of its own.
    assert.notEqual(hidden((await new Visitor(ctx.app).get('/dashboard/login')).body, '_csrf'), first);
  });

  test('names and emails with markup are shown escaped on every page', async () => {
    const v = await signedInAs(NASTY_EMAIL);
    const { id } = await createKeyIn(v, XSS);
    const confirm = await v.get(`/dashboard/keys/${id}/revoke`);
    await v.post(`/dashboard/keys/${id}/revoke`, { _csrf: hidden(confirm.body, '_csrf') });
    for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/audit', '/dashboard/password']) await v.get(path);
    const anon = new Visitor(ctx.app);
    const form = await anon.get('/dashboard/login');
    await anon.post('/dashboard/login', { _csrf: hidden(form.body, '_csrf'), email: `"${XSS}`, password: 'wrong' });
    for (const res of [...v.seen, ...anon.seen].filter((r) => r.statusCode !== 303)) {
      assert.equal(res.body.match(/<script/gi)?.length, 1, `only the dashboard's own script tag (${res.raw.req.url})`);
      assert.doesNotMatch(res.body, /="[^"]*"</, `an attribute was cut short (${res.raw.req.url})`);
    }
    const text = (path: string) => v.seen.find((r) => r.raw.req.url === path)!.body;
    assert.ok(text('/dashboard/keys').includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the key name is shown, escaped');
    assert.ok(text('/dashboard/audit').includes('&quot;&lt;script&gt;alert(1)&lt;/script&gt;@x.example'), 'the email is shown, escaped');
    assert.ok(anon.seen.at(-1)!.body.includes('value="&quot;&lt;script&gt;'), 'the typed email is given back, escaped');
  });

  test('the dashboard never puts an API key in a URL', async () => {
    const v = await signedInAs('alice@example.com');
    const { key, id } = await createKeyIn(v, 'no urls');
    await createKeyIn(v, 'test one', 'test');
    const confirm = await v.get(`/dashboard/keys/${id}/revoke`);
    await v.post(`/dashboard/keys/${id}/revoke`, { _csrf: hidden(confirm.body, '_csrf') });
    for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/audit']) await v.get(path);
    assert.ok(
      v.seen.some((r) => r.body.includes(key)),
      'the key was shown once',
    );
    for (const res of v.seen) {
      assert.doesNotMatch(String(res.headers.location ?? ''), /svc_/);
      for (const [, url] of res.body.matchAll(/\b(?:src|href|action)="([^"]*)"/g)) assert.doesNotMatch(url!, /svc_/);
    }
  });
});

// A self-signed certificate for 127.0.0.1 tests only (P-256, valid until 2126).
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg22UzHj02pSyoIic8
MmNzQcx6hKDkVEaD020MFAhPycyhRANCAAR+ZBp8GqpwrBS7m3XOZGHEDVplXOMB
ZuErx+SYzGszlyoP2tVxOtJxMrWVhIWzcibHTbHGTN/T9yA9rHLAqdWp
-----END PRIVATE KEY-----
`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBgDCCASWgAwIBAgIUNLCD7JNeFtEPbk65rwYHqgz54EIwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMTA4MzUzOFoYDzIxMjYxMDI4
MDgzNTM4WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAR+ZBp8GqpwrBS7m3XOZGHEDVplXOMBZuErx+SYzGszlyoP2tVxOtJx
MrWVhIWzcibHTbHGTN/T9yA9rHLAqdWpo1MwUTAdBgNVHQ4EFgQUOGy5KsBNRXFs
qTeIiSXgs8o/DFcwHwYDVR0jBBgwFoAUOGy5KsBNRXFsqTeIiSXgs8o/DFcwDwYD
VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBGAiEAlIHI2Wqw0n8Da4FBjOPo
WUi7igSIHTza0mlv60CobZgCIQCJTVTP8fe8mUErAoLJH9Aec4eqQQFEvQSVdS/C
n8NbLA==
-----END CERTIFICATE-----
`;
