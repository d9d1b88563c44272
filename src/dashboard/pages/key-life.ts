/** The pieces of the keys' life on the dashboard: state and expiry, the exposure banner, the roll pages. */
import type { ApiKeyInfo } from '../../domain/access.ts';
import { daysLeft, EXPIRING_SOON_DAYS, EXPIRY_DAYS, keyState } from '../../domain/key-life.ts';
import { VIA_TEXT, type ExposureWarning } from '../../services/access/exposure.ts';
import type { ActiveSession } from '../../services/dashboard/sessions.ts';
import { html, type SafeHtml } from '../../html.ts';
import { csrfField, page } from '../layout.ts';

const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The state column: active (and when it expires), expired, or revoked. */
export function keyStateCell(k: ApiKeyInfo, nowMs: number): SafeHtml {
  const state = keyState(k, nowMs);
  if (state === 'revoked') return html`<span class="state revoked">revoked</span>`;
  // One element per cell: on a phone each cell is a two-column grid (label, value).
  if (state === 'expired')
    return html`<span><span class="state expired">expired</span> <time class="muted" datetime="${k.expiresAt}">${minute(k.expiresAt!)}</time></span>`;
  const days = daysLeft(k, nowMs);
  if (days === null) return html`<span class="state active">active</span>`;
  const soon = days <= EXPIRING_SOON_DAYS;
  const hours = Math.ceil((Date.parse(k.expiresAt!) - nowMs) / 3_600_000);
  const text = hours < 24 ? `expires in ${hours} hour${hours === 1 ? '' : 's'}` : days === 1 ? 'expires in 1 day' : `expires in ${days} days`;
  return html`<span><span class="state active">active</span> <span class="${soon ? 'soon' : 'muted'}" title="${minute(k.expiresAt!)}">${text}</span></span>`;
}

/** The create form's expiry: never, 30, 90 or 365 days, or a date. */
export function expiryFields(): SafeHtml {
  return html`<div class="field"><label for="expires">Expires</label>
      <select id="expires" name="expires">
        <option value="never" selected>Never</option>
        ${EXPIRY_DAYS.map((d) => html`<option value="${d}d">In ${d} days</option>`)}
        <option value="date">On a date…</option>
      </select></div>
    <div class="field"><label for="expires_on">Date (with "On a date")</label><input id="expires_on" name="expires_on" type="date"></div>`;
}

/** The banner of every organisation page while a key that leaked still works. */
export function exposureBanner(warnings: ExposureWarning[]): SafeHtml | undefined {
  if (warnings.length === 0) return undefined;
  return html`<section class="banner" role="alert" aria-labelledby="exposed-h">
  <strong id="exposed-h">${warnings.length === 1 ? 'A key has been exposed' : 'Keys have been exposed'}</strong>
  <ul>${warnings.map(
    ({ key, exposure, successor }) =>
      html`<li>Key <code>${key.displayPrefix}…</code> (${key.name}) was sent ${VIA_TEXT[exposure.via]} on <time datetime="${exposure.at}">${minute(exposure.at)}</time> from ${exposure.address}${
        // Rolled or not is what the advice turns on: an expiry of its own does not end a leaked key soon.
        successor === null
          ? html`: <a href="/dashboard/keys/${key.id}/roll">roll it</a>.`
          : html`; it stops working at <time datetime="${key.expiresAt ?? ''}">${key.expiresAt ? minute(key.expiresAt) : 'now'}</time>. <a href="/dashboard/keys/${key.id}/revoke">Revoke it now</a> once its successor <code>${successor.displayPrefix}…</code> is in place.`
      }</li>`,
  )}</ul>
</section>`;
}

/** nonce: the form's one-time token, so that the form sent again makes no second successor. */
export function rollConfirmPage(session: ActiveSession, key: ApiKeyInfo, nonce: string, error?: string): string {
  return page({
    title: 'Roll key',
    session,
    current: 'keys',
    body: html`
<section class="card">
  ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
  <p>Roll <strong>${key.name}</strong> (<code>${key.displayPrefix}…</code>, ${key.mode})? A new key with the same name and mode is created and shown once. The old key keeps working until the grace period ends, then every request with it is refused.</p>
  <form method="post" action="/dashboard/keys/${key.id}/roll" class="row">
    ${csrfField(session.csrfToken)}
    <input type="hidden" name="nonce" value="${nonce}">
    <div class="field"><label for="grace">The old key stops working</label>
      <select id="grace" name="grace">
        <option value="now">Now</option>
        <option value="1h">In 1 hour</option>
        <option value="24h" selected>In 24 hours</option>
        <option value="7d">In 7 days</option>
      </select></div>
    <button type="submit">Roll key</button>
    <a href="/dashboard/keys">Cancel</a>
  </form>
</section>`,
  });
}

export function rolledPage(session: ActiveSession, key: string, info: ApiKeyInfo, previous: ApiKeyInfo): string {
  return page({
    title: 'Your new API key',
    session,
    current: 'keys',
    body: html`
<section class="card">
  <p class="warning" role="alert"><strong>Copy this key now.</strong> It is shown only this once and cannot be shown again, by anyone.</p>
  <label for="new-key">${info.name} (${info.mode}), successor of ${previous.displayPrefix}…</label>
  <div class="copy">
    <textarea id="new-key" class="key" readonly rows="1" spellcheck="false" autocomplete="off" data-testid="new-key">${key}</textarea>
    <button type="button" data-copy="new-key">Copy</button>
  </div>
  <p data-testid="grace-end">The old key <code>${previous.displayPrefix}…</code> works until <time datetime="${previous.expiresAt ?? ''}">${previous.expiresAt ? minute(previous.expiresAt) : 'now'}</time>; deploy the new one before then.</p>
  <p><a href="/dashboard/keys">Done</a></p>
</section>`,
  });
}
