/**
 * The landing page and the API reference as people meet them, in a real
 * browser, reached over plain HTTP under a name that is not localhost, with
 * every request to another host refused. The reference shows Codebook's guide
 * and every operation, with example responses and error codes; both pages ask
 * nothing of any other host and work on a phone.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumMissing, launchBrowser, SCREENSHOT_DIR, VIEWPORTS } from '../helpers/browser.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { assertUsable } from '../helpers/layout.ts';

// Chromium resolves this name to the loopback address, but to the browser it is
// not localhost: plain HTTP to it is not a "potentially trustworthy" origin.
const HOST = 'docs.example';
const OPERATIONS = ['List codes', 'Get one code', 'List changes', 'List the changes of one code'];
const GUIDE = ['Quick start', 'Authentication', 'Paging with cursors', 'Errors', 'Limits and the RateLimit headers'];
// Parsing the 4.9 MB bundle takes seconds on a loaded machine; the page is judged by what it shows.
const RENDERED = { timeout: 60_000 };

const skip = chromiumMissing();
if (skip) console.log(`# ${skip}`);

/** Records every Content-Security-Policy violation, from before the page's first script. */
const RECORD_VIOLATIONS = `
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.effectiveDirective + ' ' + (e.blockedURI || e.sample)));
`;

interface Visit {
  context: BrowserContext;
  page: Page;
  /** Requests the page tried to send to any other origin (each one refused). */
  offHost: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
}

describe('the landing page and the API reference', { skip }, () => {
  let ctx: TestContext;
  let browser: Browser;
  let origin: string;

  before(async () => {
    ctx = await createTestContext();
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://${HOST}:${new URL(address).port}`;
    browser = await launchBrowser([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
  });

  after(async () => {
    await browser?.close();
    await ctx?.close();
  });

  /** Opens a page in a fresh context in which every request to another origin is refused and recorded. */
  async function open(path: string, viewport: { width: number; height: number }, phone: boolean): Promise<Visit> {
    const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
    const offHost: string[] = [];
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      offHost.push(url);
      return route.abort('blockedbyclient');
    });
    await context.addInitScript({ content: RECORD_VIOLATIONS });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}${path}`);
    return { context, page, offHost, errors };
  }

  /** Nothing was asked of another host, the page's CSP was never broken, and nothing failed. */
  async function assertSelfContained({ page, offHost, errors }: Visit): Promise<void> {
    assert.deepEqual(offHost, [], 'requests to other hosts');
    assert.deepEqual(await page.evaluate('window.cspViolations'), [], 'Content-Security-Policy violations');
    assert.deepEqual(errors, [], 'console errors');
  }

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test(`the landing page says what this is and leads on, at ${viewport.width}×${viewport.height}`, async () => {
      const phone = size === 'phone';
      const visit = await open('/', viewport, phone);
      const { page } = visit;
      assert.equal(await page.title(), 'Codebook');
      await assertUsable(page, `landing (${size})`);
      const main = page.getByRole('main');
      for (const name of ['API reference', 'OpenAPI document', 'Dashboard', 'Health']) await main.getByRole('link', { name, exact: true }).waitFor();
      await page.screenshot({ path: join(SCREENSHOT_DIR, `landing-${size}.png`), fullPage: true });
      await assertSelfContained(visit);

      // Its links lead on (the reference last: leaving it mid-load is all this test does with it).
      const dashboard = main.getByRole('link', { name: 'Dashboard', exact: true });
      await (phone ? dashboard.tap() : dashboard.click());
      await page.waitForURL(`${origin}/dashboard/login`);
      await page.goto(`${origin}/`);
      const reference = main.getByRole('link', { name: 'API reference', exact: true });
      await (phone ? reference.tap() : reference.click());
      await page.waitForURL(`${origin}/docs`, { waitUntil: 'commit' });
      await visit.context.close();
    });
  }

  test('renders over plain HTTP on a host that is not localhost, offline: the guide, then every operation', async () => {
    const visit = await open('/docs', VIEWPORTS.desktop, false);
    const { page } = visit;
    const sidebar = page.getByRole('complementary', { name: 'Sidebar for Codebook API' });
    for (const name of OPERATIONS) await sidebar.getByText(name, { exact: true }).waitFor(RENDERED);

    assert.match(await page.title(), /Codebook/);
    await page.getByRole('heading', { name: 'Codebook API', level: 1 }).waitFor();
    for (const name of GUIDE) assert.ok(await page.getByRole('heading', { name, exact: true }).isVisible(), `the guide's "${name}"`);
    const body = (await page.textContent('body')) ?? '';
    assert.match(body, /curl -H "Authorization: Bearer \$KEY"/, 'the guide has curl examples');
    assert.doesNotMatch(body, /swagger|fastify/i, 'no stock Swagger UI');

    // The guide comes before the operations.
    await sidebar.getByText('Get one code', { exact: true }).click();
    const operation = page.getByRole('heading', { name: 'Get one code', exact: true });
    await operation.waitFor(RENDERED);
    const guideFirst = await page
      .getByRole('heading', { name: 'Authentication', exact: true })
      .evaluate((guide, op) => Boolean(guide.compareDocumentPosition(op as never) & 4), await operation.elementHandle());
    assert.ok(guideFirst, 'the guide precedes the operations');

    // The operation: an example request with the key header, an example response, a tab for each error status.
    const section = page.locator('section', { has: operation }).first();
    await section.getByText(`curl ${origin}/v1/codes/`).waitFor(RENDERED);
    await section.getByText('"iso4217:EUR"').filter({ visible: true }).first().waitFor(RENDERED);
    const statusTab = (status: string) => section.getByRole('tab', { name: new RegExp(`^Status: ${status}\\b`) });
    for (const status of ['400', '401', '403', '404', '429', '500', '503']) await statusTab(status).waitFor();
    await statusTab('404').click();
    await section.getByText('"code_not_found"').filter({ visible: true }).first().waitFor(RENDERED);
    await statusTab('429').click();
    await section.getByText('"rate_limit_exceeded"').filter({ visible: true }).first().waitFor(RENDERED);

    // Search and the colour scheme switch work from here alone too.
    await page.getByRole('button', { name: 'Open Search' }).click();
    await page.keyboard.type('changes of one');
    await page.getByRole('dialog').getByText('List the changes of one code').first().waitFor(RENDERED);
    await page.keyboard.press('Escape');

    await page.screenshot({ path: join(SCREENSHOT_DIR, 'docs-desktop.png') });
    await assertSelfContained(visit);
    await visit.context.close();
  });

  test('reads on a phone without sideways scrolling', async () => {
    const visit = await open('/docs', VIEWPORTS.phone, true);
    const { page } = visit;
    await page.getByRole('heading', { name: 'Quick start', exact: true }).waitFor(RENDERED);
    for (const name of GUIDE) await page.getByRole('heading', { name, exact: true }).waitFor();
    const [scrollWidth, innerWidth] = await page.evaluate<number[]>('[document.documentElement.scrollWidth, innerWidth]');
    assert.ok(scrollWidth! <= innerWidth!, `the page is ${scrollWidth} px wide on a ${innerWidth} px screen`);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'docs-phone.png') });
    await assertSelfContained(visit);
    await visit.context.close();
  });
});
