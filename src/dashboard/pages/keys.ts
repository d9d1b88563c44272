/** The organisation's API keys: list, create (shown once), revoke after confirmation. */
import type { ApiKeyInfo, Plan } from '../../domain/access.ts';
import type { ActiveSession } from '../../services/dashboard/sessions.ts';
import { html } from '../../html.ts';
import { csrfField, errorBox, page } from '../layout.ts';
import { expiryFields, keyStateCell } from './key-life.ts';
import type { SafeHtml } from '../../html.ts';
import { keyState } from '../../domain/key-life.ts';

/** What the keys page shows of the keys' life: states against the clock, and the exposure banner. */
export interface KeysPageLife {
  now: number;
  banner?: SafeHtml;
}

const when = (iso: string | null) =>
  iso === null ? html`<span class="muted">never</span>` : html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;

export function keysPage(
  session: ActiveSession,
  keys: ApiKeyInfo[],
  plan: Plan,
  nonce: string,
  error?: string,
  notice?: string,
  life: KeysPageLife = { now: Date.now() },
): string {
  const rows = keys.map(
    (k) => html`<tr>
      <td data-label="Name">${k.name}</td>
      <td data-label="Key"><code>${k.displayPrefix}…</code></td>
      <td data-label="Mode">${k.mode}</td>
      <td data-label="Created">${when(k.createdAt)}</td>
      <td data-label="Last used">${when(k.lastUsedAt)}</td>
      <td data-label="State">${keyStateCell(k, life.now)}</td>
      <td class="actions">${
        keyState(k, life.now) === 'active'
          ? html`<a class="action" href="/dashboard/keys/${k.id}/roll" aria-label="Roll ${k.name}">Roll</a> <a class="action" href="/dashboard/keys/${k.id}/revoke" aria-label="Revoke ${k.name}">Revoke</a>`
          : ''
      }</td>
    </tr>`,
  );
  return page({
    title: 'API keys',
    session,
    current: 'keys',
    banner: life.banner,
    body: html`
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${errorBox(error)}
<section class="card" aria-labelledby="new-h">
  <h2 id="new-h">Create a key</h2>
  <form method="post" action="/dashboard/keys" class="row">
    ${csrfField(session.csrfToken)}
    <input type="hidden" name="nonce" value="${nonce}">
    <div><label for="name">Name</label><input id="name" name="name" maxlength="100" placeholder="e.g. production server"></div>
    <fieldset>
      <legend>Mode</legend>
      <label><input type="radio" name="mode" value="live" checked> Live</label>
      ${plan.testKeysAllowed ? html`<label><input type="radio" name="mode" value="test"> Test</label>` : html`<span class="hint">Your plan does not include test keys.</span>`}
    </fieldset>
    ${expiryFields()}
    <button type="submit">Create key</button>
  </form>
</section>
<section class="card" aria-labelledby="list-h">
  <h2 id="list-h">Keys</h2>
  ${
    keys.length === 0
      ? html`<p>No keys yet.</p>`
      : html`<div class="scroll"><table class="stack">
    <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Mode</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${rows}</tbody>
  </table></div>`
  }
  <p class="hint">Keys are shown in full only once, when they are created. Send them as <code>Authorization: Bearer &lt;key&gt;</code> from your server.</p>
</section>`,
  });
}

export function keyCreatedPage(session: ActiveSession, key: string, info: ApiKeyInfo): string {
  return page({
    title: 'Your new API key',
    session,
    current: 'keys',
    body: html`
<section class="card">
  <p class="warning" role="alert"><strong>Copy this key now.</strong> It is shown only this once and cannot be shown again, by anyone. If you lose it, revoke it and create a new one.</p>
  <label for="new-key">${info.name} (${info.mode})</label>
  <div class="copy">
    <textarea id="new-key" class="key" readonly rows="1" spellcheck="false" autocomplete="off" data-testid="new-key">${key}</textarea>
    <button type="button" data-copy="new-key">Copy</button>
  </div>
  <p class="hint">Use it as <code>Authorization: Bearer &lt;key&gt;</code>. Never put it in a URL or in a web page.</p>
  <p><a href="/dashboard/keys">Done</a></p>
</section>`,
  });
}

export function revokeConfirmPage(session: ActiveSession, key: ApiKeyInfo): string {
  return page({
    title: 'Revoke key',
    session,
    current: 'keys',
    body: html`
<section class="card">
  <p>Revoke <strong>${key.name}</strong> (<code>${key.displayPrefix}…</code>, ${key.mode})? Every request that uses it will be refused from the next one on. This cannot be undone.</p>
  <form method="post" action="/dashboard/keys/${key.id}/revoke" class="row">
    ${csrfField(session.csrfToken)}
    <button type="submit" class="danger">Revoke key</button>
    <a href="/dashboard/keys">Cancel</a>
  </form>
</section>`,
  });
}
