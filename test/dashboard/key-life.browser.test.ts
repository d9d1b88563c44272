/**
 * Keys through their life in a real browser, at a phone's size (390 px, touch)
 * and a laptop's (1280 px): create a key that expires, see the keys that end
 * soon and those that have ended apart from revoked ones, see the banner of a
 * key sent in a URL and roll it from there, find a request by its Request-Id,
 * read usage by key, and switch on the automatic revocation of exposed keys.
 * Every page is checked usable at both sizes; screenshots land in
 * test-results/screenshots.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Deps } from '../../src/deps.ts';
import type { Organisation } from '../../src/domain/access.ts';
import { createKey, createOrg } from '../../src/services/access/admin.ts';
import { createUser, setPasswordWithToken } from '../../src/services/dashboard/users.ts';
import { chromiumMissing, SCREENSHOT_DIR, VIEWPORTS } from '../helpers/browser.ts';
import { startDashboard, type DashboardServer } from '../helpers/dashboard-server.ts';
import { assertUsable } from '../helpers/layout.ts';

const PASSWORD = 'correct horse battery staple';
const DAY = 86_400_000;

const skip = chromiumMissing();
if (skip) console.log(`# ${skip}`);

describe('keys through their life in the dashboard', { skip }, () => {
  let server: DashboardServer;
  let deps: Deps;
  let base: string;
  let browser: Browser;

  before(async () => {
    server = await startDashboard('codebook-keylife-');
    ({ deps, base, browser } = server);
  });

  after(async () => {
    await server?.close();
  });

  async function organisation(size: string): Promise<{ org: Organisation; email: string; exposed: string }> {
    const org = await createOrg(deps.admin, `life-${size}`, 'pro');
    const email = `owner@${size}.example.com`;
    const { token } = await createUser(deps.admin, org, email);
    await setPasswordWithToken(deps.admin, token, PASSWORD);
    const iso = (ms: number) => new Date(ms).toISOString();
    await createKey(deps.admin, org, 'live', 'ends soon', { expiresAt: iso(Date.now() + 3 * DAY + 60_000) });
    await createKey(deps.admin, org, 'test', 'ended', { expiresAt: iso(Date.now() - DAY) });
    const { key } = await createKey(deps.admin, org, 'live', 'storefront');
    return { org, email, exposed: key };
  }

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test(`expiry, exposure, roll, request log, usage by key and settings at ${viewport.width} px`, async () => {
      const { email, exposed } = await organisation(size);
      const phone = size === 'phone';
      const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
      const page = await context.newPage();
      const check = async (name: string) => {
        await assertUsable(page, `${name} (${size})`);
        await page.screenshot({ path: join(SCREENSHOT_DIR, `keylife-${name}-${size}.png`), fullPage: true });
      };
      const tap = (target: ReturnType<Page['getByRole']>) => (phone ? target.tap() : target.click());
      const main = async () => (await page.textContent('main')) ?? '';

      await page.goto(`${base}/dashboard/login`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await tap(page.getByRole('button', { name: 'Sign in' }));
      await page.waitForURL(`${base}/dashboard`);

      // A key that ends by itself, and the states of the others.
      await tap(page.getByRole('link', { name: 'API keys' }));
      await page.waitForURL(`${base}/dashboard/keys`);
      await page.getByLabel('Name').fill('quarterly report');
      await page.getByLabel('Expires').selectOption('90d');
      await tap(page.getByRole('button', { name: 'Create key' }));
      await page.getByTestId('new-key').waitFor();
      await tap(page.getByRole('link', { name: 'Done' }));
      await page.waitForURL(`${base}/dashboard/keys`);
      const rowText = async (name: string) => (await page.getByRole('row').filter({ hasText: name }).textContent()) ?? '';
      assert.match(await rowText('quarterly report'), /active\s*expires in 90 days/);
      assert.match(await rowText('ends soon'), /expires in 4 days/);
      assert.equal(await page.getByRole('row').filter({ hasText: 'ends soon' }).locator('.soon').count(), 1, 'marked: within 7 days');
      assert.match(await rowText('ended'), /expired/);
      assert.doesNotMatch(await rowText('ended'), /revoked/);
      await check('keys');

      // The key is sent in a URL: refused, and the dashboard says so.
      assert.equal((await fetch(`${base}/v1/codes?limit=1&api_key=${exposed}`)).status, 400);
      await page.reload();
      const banner = page.getByRole('alert').filter({ hasText: 'exposed' });
      assert.match(
        (await banner.textContent()) ?? '',
        new RegExp(`Key ${exposed.slice(0, 13)}… \\(storefront\\) was sent in a URL on .* UTC from 127\\.0\\.0\\.1: roll it`),
      );
      assert.ok(!(await page.content()).includes(exposed), 'the page never shows the key');
      await check('keys-exposed');

      // Roll it from the banner, with an hour's grace.
      await tap(banner.getByRole('link', { name: 'roll it' }));
      await page.waitForURL(/\/roll$/);
      await page.getByLabel('The old key stops working').selectOption('1h');
      await check('roll-confirm');
      await tap(page.getByRole('button', { name: 'Roll key' }));
      await page.getByTestId('new-key').waitFor();
      const successor = (await page.getByTestId('new-key').inputValue()).trim();
      assert.match(successor, /^svc_live_[A-Za-z0-9]{32}$/);
      assert.match((await page.getByTestId('grace-end').textContent()) ?? '', /works until/);
      await check('rolled');
      await tap(page.getByRole('link', { name: 'Done' }));
      await page.waitForURL(`${base}/dashboard/keys`);
      const storefront = page.getByRole('row').filter({ hasText: 'storefront' });
      assert.equal(await storefront.count(), 2);
      assert.match((await storefront.first().textContent()) ?? '', /expires in 1 hour/);
      assert.match(
        (await banner.textContent()) ?? '',
        new RegExp(`stops working at .*\\. Revoke it now once its successor ${successor.slice(0, 13)}… is in place`),
      );

      // Both keys answer during the grace period; a request is found by its Request-Id.
      for (const k of [exposed, successor]) assert.equal((await fetch(`${base}/v1/codes?limit=1`, { headers: { authorization: `Bearer ${k}` } })).status, 200);
      const missing = await fetch(`${base}/v1/codes/nowhere:X`, { headers: { authorization: `Bearer ${successor}` } });
      assert.equal(missing.status, 404);
      const requestId = missing.headers.get('request-id')!;
      await tap(page.getByRole('link', { name: 'Requests' }));
      await page.waitForURL(`${base}/dashboard/requests`);
      assert.equal(await page.locator('#requests tbody tr').count(), 3);
      await check('requests');
      await page.getByLabel('Request-Id').fill(requestId);
      await tap(page.getByRole('button', { name: 'Show' }));
      await page.waitForURL(/request_id=/);
      const rows = page.locator('#requests tbody tr');
      assert.equal(await rows.count(), 1);
      assert.match((await rows.textContent()) ?? '', new RegExp(`GET /v1/codes/nowhere:X[\\s\\S]*404[\\s\\S]*code_not_found[\\s\\S]*${requestId}`));
      await check('requests-found');

      // Usage by key, live and test apart: the successor's two requests (a 404 for a code counts too), the old key's one.
      await tap(page.getByRole('link', { name: 'Overview' }));
      await page.waitForURL(`${base}/dashboard`);
      const live = page.locator('#usage-live');
      assert.match((await live.locator(`tr[data-key="${successor.slice(0, 13)}"]`).textContent()) ?? '', /2\s*2\s*2\s*2/);
      assert.match((await live.locator(`tr[data-key="${exposed.slice(0, 13)}"]`).textContent()) ?? '', /1\s*1\s*1\s*1/);
      assert.match(await main(), /Test keys/);
      await check('overview-by-key');

      // Exposed keys revoked automatically from now on.
      await tap(page.getByRole('link', { name: 'Settings' }));
      await page.waitForURL(`${base}/dashboard/settings`);
      await check('settings');
      await page.getByLabel(/Revoke a key automatically/).check();
      await tap(page.getByRole('button', { name: 'Save settings' }));
      await page.getByRole('status').waitFor();
      assert.match(await main(), /Settings saved/);
      assert.equal((await fetch(`${base}/v1/codes?token=${successor}`)).status, 400);
      assert.equal((await fetch(`${base}/v1/codes?limit=1`, { headers: { authorization: `Bearer ${successor}` } })).status, 401);
      await tap(page.getByRole('link', { name: 'Audit log' }));
      await page.waitForURL(`${base}/dashboard/audit`);
      const audit = await main();
      for (const action of ['rolled key', 'key exposed', 'changed settings']) assert.ok(audit.includes(action), action);
      assert.ok(!audit.includes(successor) && !audit.includes(exposed));
      await context.close();
    });
  }
});
