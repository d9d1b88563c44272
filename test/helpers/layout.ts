/**
 * "Usable at this size", as a browser test asserts it: the page does not
 * scroll sideways, and every control a user can see lies within the screen's
 * width (without scrolling anything sideways) and is what a tap at its centre
 * reaches, nothing covering it; a key's state ("revoked", "active") is never
 * broken inside the word, however long the names beside it.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

interface Control {
  label: string;
  left: number;
  right: number;
  /** What a tap at the control's centre reaches, when it is not the control. */
  covered: string | null;
}

// Runs in the page. Positions are measured first, before anything scrolls: a
// control reachable only by scrolling a table sideways must not pass. Then each
// control is scrolled into view vertically and hit-tested at its centre.
const MEASURE = `(() => {
  const describe = (e) => e.tagName.toLowerCase() + ' "' + (e.getAttribute('aria-label') || e.textContent || e.getAttribute('name') || '').trim().slice(0, 40) + '"';
  const controls = [...document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, summary')]
    .filter((e) => e.checkVisibility({ visibilityProperty: true }))
    .map((e) => ({ e, box: e.getBoundingClientRect() }))
    .filter(({ box }) => box.width >= 2 && box.height >= 2);
  return controls.map(({ e, box }) => {
    e.scrollIntoView({ block: 'center', inline: 'nearest' });
    const now = e.getBoundingClientRect();
    const hit = document.elementFromPoint(now.left + now.width / 2, now.top + now.height / 2);
    const reached = hit !== null && (hit === e || e.contains(hit) || (hit.tagName === 'LABEL' && hit.control === e));
    return { label: describe(e), left: box.left, right: box.right, covered: reached ? null : hit ? describe(hit) : 'nothing' };
  });
})()`;

export async function assertUsable(page: Page, where: string): Promise<void> {
  // Measured once the page has loaded, stylesheets included: a test that found the page's text may be ahead of its
  // styles (a page reached at the URL it was already at leaves waitForURL nothing to wait for), and an unstyled
  // table is wider than a phone.
  await page.waitForLoadState('load');
  // On a phone the browser widens its layout viewport (innerWidth) to a page that
  // overflows and zooms out, so the screen's width is the one to compare with.
  const screen = page.viewportSize()!.width;
  const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
    '({ scrollWidth: document.documentElement.scrollWidth, innerWidth })',
  );
  assert.ok(
    scrollWidth <= screen && innerWidth === screen,
    `${where}: the page is ${scrollWidth} px wide on a ${screen} px screen (layout viewport ${innerWidth} px)`,
  );

  const controls = await page.evaluate<Control[]>(MEASURE);
  assert.ok(controls.length > 0, `${where}: no controls found`);
  for (const { label, left, right, covered } of controls) {
    assert.ok(left >= 0 && right <= screen + 0.5, `${where}: ${label} spans ${left.toFixed(0)}–${right.toFixed(0)} px, outside the ${screen} px screen`);
    assert.equal(covered, null, `${where}: a tap at the centre of ${label} reaches ${covered}`);
  }
  const brokenStates = await page.evaluate<string[]>(
    `[...document.querySelectorAll('.state')].filter((e) => e.getClientRects().length > 1).map((e) => e.textContent)`,
  );
  assert.deepEqual(brokenStates, [], `${where}: a key's state is broken across lines`);
  await page.evaluate('window.scrollTo(0, 0)');
}
