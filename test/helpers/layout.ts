/**
 * "Usable at this size", as a browser test asserts it: the page does not
 * scroll sideways, and every control a user can see lies within the screen's
 * width (without scrolling anything sideways) and takes a tap at its centre.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

const CONTROLS = 'a[href], button, input:not([type="hidden"]), select, textarea, summary';

interface Control {
  index: number;
  label: string;
  left: number;
  right: number;
}

export async function assertUsable(page: Page, where: string): Promise<void> {
  // On a phone the browser widens its layout viewport (innerWidth) to a page that
  // overflows and zooms out, so the screen's width is the one to compare with.
  const screen = page.viewportSize()!.width;
  const { scrollWidth, innerWidth } = (await page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, innerWidth })')) as {
    scrollWidth: number;
    innerWidth: number;
  };
  assert.ok(scrollWidth <= screen && innerWidth === screen, `${where}: the page is ${scrollWidth} px wide on a ${screen} px screen (layout viewport ${innerWidth} px)`);

  // Measured before anything is scrolled: a control reachable only by scrolling a table sideways does not count.
  const controls = page.locator(CONTROLS);
  const found: Control[] = [];
  for (let index = 0; index < (await controls.count()); index++) {
    const control = controls.nth(index);
    if (!(await control.isVisible())) continue;
    const box = await control.boundingBox();
    if (!box || box.width < 2 || box.height < 2) continue;
    const label = ((await control.getAttribute('aria-label')) ?? (await control.textContent()) ?? (await control.getAttribute('name')) ?? '').trim().slice(0, 40);
    found.push({ index, label: `${await control.evaluate((e) => e.tagName.toLowerCase())} "${label}"`, left: box.x, right: box.x + box.width });
  }
  assert.ok(found.length > 0, `${where}: no controls found`);
  for (const { label, left, right } of found) {
    assert.ok(left >= 0 && right <= screen + 0.5, `${where}: ${label} spans ${left.toFixed(0)}–${right.toFixed(0)} px, outside the ${screen} px screen`);
  }
  // Nothing covers it: a tap at its centre would reach it (checked without tapping).
  for (const { index, label } of found) {
    await controls.nth(index).click({ trial: true, timeout: 5_000 }).catch((error: Error) => assert.fail(`${where}: ${label} cannot be tapped: ${error.message.split('\n')[0]}`));
  }
}
