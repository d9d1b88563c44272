/**
 * The dashboard as a user meets it, in a real browser against a real server:
 * set a password from the operator's one-time link, sign in, create a key and
 * read it once, use it, revoke it; another organisation cannot touch it; a
 * form without its CSRF token is refused. (layout.browser.test.ts takes every
 * page's screenshots, at a phone's size and a laptop's.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Deps } from '../../src/deps.ts';
import { createOrg } from '../../src/services/access/admin.ts';
import { createUser } from '../../src/services/dashboard/users.ts';
import { loadDemo } from '../../src/services/demo.ts';
import { chromiumMissing, VIEWPORTS } from '../helpers/browser.ts';
import { runCodebook } from '../helpers/cli.ts';
import { startDashboard, type DashboardServer } from '../helpers/dashboard-server.ts';

const PASSWORD = 'correct horse battery staple';

const skip = chromiumMissing();
if (skip) console.log(`# ${skip}`);

describe('dashboard in a browser', { skip }, () => {
  let server: DashboardServer;
  let deps: Deps;
  let base: string;
  let browser: Browser;

  before(async () => {
    server = await startDashboard('codebook-dash-', async (d) => {
      await loadDemo(d.store);
    });
    ({ deps, base, browser } = server);
    await createOrg(deps.admin, 'acme', 'pro');
    await createOrg(deps.admin, 'globex', 'free');
  });

  after(async () => {
    await server?.close();
  });

  const cli = async (...args: string[]) => {
    const r = await runCodebook(args, { settings: { DATABASE_URL: server.databaseUrl, PUBLIC_URL: base } });
    assert.equal(r.code, 0, `codebook ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  const api = (key: string) => fetch(`${base}/v1/codes?limit=1`, { headers: { authorization: `Bearer ${key}` } });

  async function signIn(context: BrowserContext, email: string, password = PASSWORD): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/dashboard`);
    return page;
  }

  test('a new user sets a password from the one-time link, signs in, creates, uses and revokes a key', async () => {
    const created = JSON.parse(await cli('users', 'create', '--org', 'acme', '--email', 'alice@example.com', '--json'));
    assert.match(created.link, new RegExp(`^${base}/dashboard/set-password\\?token=`));

    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/login`);
    await page.goto(created.link);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(/\/dashboard\/login\?done=password$/);
    assert.match((await page.textContent('main')) ?? '', /Your password is set/);

    // The link works once, and says so when opened again, before any password is typed.
    const reopened = await page.goto(created.link);
    assert.equal(reopened?.status(), 400);
    assert.match((await page.textContent('main')) ?? '', /This link is not valid/);
    assert.equal(await page.getByLabel('New password').count(), 0);

    const signedIn = await signIn(context, 'alice@example.com');
    assert.match((await signedIn.textContent('main')) ?? '', /Plan: pro/);

    await signedIn.getByRole('link', { name: 'API keys' }).click();
    await signedIn.getByLabel('Name').fill('production server');
    await signedIn.getByRole('button', { name: 'Create key' }).click();
    const key = await signedIn.getByTestId('new-key').inputValue();
    assert.match(key, /^svc_live_[A-Za-z0-9]{32}$/);
    assert.match((await signedIn.textContent('main')) ?? '', /cannot be shown again/);

    // Reloading resubmits the form: no second key, and the key is not shown again.
    await signedIn.reload();
    const afterReload = await signedIn.content();
    assert.ok(!afterReload.includes(key), 'the key must not be shown again');
    assert.match(afterReload, /already (sent|created)/);

    assert.equal((await api(key)).status, 200);

    await signedIn.goto(`${base}/dashboard/keys`);
    const list = (await signedIn.textContent('main')) ?? '';
    assert.ok(list.includes(key.slice(0, 13)) && !list.includes(key), 'the list shows the display prefix only');
    assert.equal((list.match(/production server/g) ?? []).length, 1, 'exactly one key was created');

    await signedIn.getByRole('link', { name: 'Revoke production server' }).click();
    await signedIn.getByRole('button', { name: 'Revoke key' }).click();
    await signedIn.waitForURL(`${base}/dashboard/keys`);
    assert.match((await signedIn.textContent('tbody')) ?? '', /revoked/);

    const refused = await api(key);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'invalid_api_key');

    await signedIn.getByRole('link', { name: 'Audit log' }).click();
    const auditText = (await signedIn.textContent('tbody')) ?? '';
    assert.match(auditText, /alice@example\.com\s*revoked key\s*production server/);
    assert.match(auditText, /alice@example\.com\s*created key\s*production server/);

    await signedIn.getByRole('link', { name: 'Password' }).click();

    // The overview counts the key's requests: one admitted (200), one refused (401 after revocation).
    await signedIn.getByRole('link', { name: 'Overview' }).click();
    assert.match((await signedIn.textContent('main')) ?? '', /1 of 1,000,000 requests used/);
    assert.match((await signedIn.locator('svg title').first().textContent()) ?? '', /2 in all/);
    await context.close();
  });

  test("another organisation's user can neither see nor revoke the first one's keys", async () => {
    const acme = (await deps.store.access.getOrg('acme'))!;
    const { token } = await createUser(deps.admin, (await deps.store.access.getOrg('globex'))!, 'bob@example.com');
    const setup = await browser.newContext();
    const p = await setup.newPage();
    await p.goto(`${base}/dashboard/set-password?token=${token}`);
    await p.getByLabel('New password').fill(PASSWORD);
    await p.getByLabel('Repeat the password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Set password' }).click();
    await p.waitForURL(/done=password/);
    await setup.close();

    const [acmeKey] = (await deps.store.access.listKeys(acme.id)).filter((k) => k.revokedAt === null);
    const victim = acmeKey ?? (await import('../../src/services/access/admin.ts').then((m) => m.createKey(deps.admin, acme, 'live', 'victim'))).info;

    const context = await browser.newContext();
    const page = await signIn(context, 'bob@example.com');
    assert.match((await page.textContent('main')) ?? '', /Plan: free/);
    await page.goto(`${base}/dashboard/keys`);
    assert.ok(!(await page.content()).includes(victim.displayPrefix), "the other organisation's keys are not listed");

    const confirm = await page.goto(`${base}/dashboard/keys/${victim.id}/revoke`);
    assert.equal(confirm?.status(), 404);

    // Forge the revoke POST with bob's own valid CSRF token: still refused.
    await page.goto(`${base}/dashboard/keys`);
    const csrf = await page.locator('input[name=_csrf]').first().inputValue();
    const forged = await page.request.post(`${base}/dashboard/keys/${victim.id}/revoke`, { form: { _csrf: csrf }, maxRedirects: 0 });
    assert.equal(forged.status(), 404);
    assert.equal((await deps.store.access.getKey(victim.id))!.revokedAt, null, 'the key is still active');
    await context.close();
  });

  test('a form posted without its CSRF token is refused and changes nothing', async () => {
    const acme = (await deps.store.access.getOrg('acme'))!;
    const before = (await deps.store.access.listKeys(acme.id)).length;
    const context = await browser.newContext();
    const page = await signIn(context, 'alice@example.com');
    const noToken = await page.request.post(`${base}/dashboard/keys`, { form: { name: 'sneaky', mode: 'live', nonce: 'n-1' }, maxRedirects: 0 });
    assert.equal(noToken.status(), 403);
    const wrongToken = await page.request.post(`${base}/dashboard/keys`, {
      form: { name: 'sneaky', mode: 'live', nonce: 'n-2', _csrf: 'x'.repeat(32) },
      maxRedirects: 0,
    });
    assert.equal(wrongToken.status(), 403);
    assert.equal((await deps.store.access.listKeys(acme.id)).length, before);
    await context.close();
  });
});
