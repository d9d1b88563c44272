/**
 * Every dashboard page at a phone's size (390×844, touch) and a laptop's
 * (1280×800): no sideways page scroll, every control on screen and tappable.
 * The walk goes by taps, as a user would: sign in, create a key and copy it,
 * revoke a key, read the usage, the audit log and the password page.
 * Screenshots of every page at both sizes land in test-results/screenshots.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Deps } from '../../src/deps.ts';
import type { Organisation } from '../../src/domain/access.ts';
import { createKey, createOrg, revokeKey } from '../../src/services/access/admin.ts';
import { createUser, newPasswordLink, setPasswordWithToken } from '../../src/services/dashboard/users.ts';
import { chromiumMissing, SCREENSHOT_DIR, VIEWPORTS } from '../helpers/browser.ts';
import { startDashboard, type DashboardServer } from '../helpers/dashboard-server.ts';
import { assertUsable } from '../helpers/layout.ts';

const PASSWORD = 'correct horse battery staple';
// As long as people make them: the longest names and addresses must still fit a phone.
const EMAIL = 'alexandra.konstantinopoulou@billing-operations.example.com';
const LONG_NAME = 'nightly reconciliation job for the accounts-receivable warehouse (eu-central)';
// A name with no place to break (99 characters; a name may have 100), revoked: its state must stay one word.
const UNBROKEN_NAME = 'reconciliation-job-for-the-accounts-receivable-warehouse-eu-central-and-the-backup-region-us-east-1';

const skip = chromiumMissing();
if (skip) console.log(`# ${skip}`);

describe('dashboard pages on a phone and on a laptop', { skip }, () => {
  let server: DashboardServer;
  let deps: Deps;
  let base: string;
  let browser: Browser;
  let org: Organisation;

  before(async () => {
    server = await startDashboard('codebook-layout-');
    ({ deps, base, browser } = server);
    org = await createOrg(deps.admin, 'acme-international-holdings', 'pro');
    const { token } = await createUser(deps.admin, org, EMAIL);
    await setPasswordWithToken(deps.admin, token, PASSWORD);
    // Keys made by the operator: the lists and the audit log have rows to lay out from the start.
    await createKey(deps.admin, org, 'live', LONG_NAME);
    await createKey(deps.admin, org, 'test', 'staging');
    await revokeKey(deps.admin, (await createKey(deps.admin, org, 'live', UNBROKEN_NAME)).info.id, org);
  });

  after(async () => {
    await server?.close();
  });

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test(`every page is usable at ${viewport.width}×${viewport.height}`, async () => {
      const phone = size === 'phone';
      const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
      const page = await context.newPage();
      const check = async (name: string) => {
        await assertUsable(page, `${name} (${size})`);
        await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${size}.png`), fullPage: true });
      };
      const tap = (target: ReturnType<Page['getByRole']>) => (phone ? target.tap() : target.click());

      const { token } = await newPasswordLink(deps.admin, EMAIL);
      await page.goto(`${base}/dashboard/set-password?token=${token}`);
      await check('set-password');
      await page.goto(`${base}/dashboard/set-password?token=not-a-link`);
      await check('set-password-not-valid');

      await page.goto(`${base}/dashboard/login`);
      await check('login');
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await tap(page.getByRole('button', { name: 'Sign in' }));
      await page.waitForURL(`${base}/dashboard`);
      await check('overview');

      await tap(page.getByRole('link', { name: 'API keys' }));
      await page.waitForURL(`${base}/dashboard/keys`);
      await check('keys');

      const name = `${size} server`;
      await page.getByLabel('Name').fill(name);
      await tap(page.getByRole('button', { name: 'Create key' }));
      await page.getByTestId('new-key').waitFor();
      await check('key-created');
      await tap(page.getByRole('button', { name: 'Copy' }));
      await tap(page.getByRole('link', { name: 'Done' }));
      await page.waitForURL(`${base}/dashboard/keys`);

      await tap(page.getByRole('link', { name: `Revoke ${name}` }));
      await page.waitForURL(/\/revoke$/);
      await check('revoke-confirm');
      await tap(page.getByRole('button', { name: 'Revoke key' }));
      await page.waitForURL(`${base}/dashboard/keys`);
      const row = page.getByRole('row').filter({ hasText: name });
      assert.match((await row.textContent()) ?? '', /revoked/);

      await tap(page.getByRole('link', { name: 'Audit log' }));
      await page.waitForURL(`${base}/dashboard/audit`);
      assert.match((await page.textContent('main')) ?? '', new RegExp(`revoked key\\s*${name}`));
      await check('audit');

      await tap(page.getByRole('link', { name: 'Password' }));
      await page.waitForURL(`${base}/dashboard/password`);
      await check('password');
      await context.close();
    });
  }
});
