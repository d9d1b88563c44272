/** The organisation's settings: revoking exposed keys automatically, and how long the request log keeps requests. */
import type { ActiveSession } from '../../services/dashboard/sessions.ts';
import type { OrgSettings } from '../../domain/key-life-records.ts';
import { html } from '../../html.ts';
import { csrfField, errorBox, page } from '../layout.ts';

export function settingsPage(session: ActiveSession, s: OrgSettings, result: { error?: string; saved?: boolean } = {}): string {
  return page({
    title: 'Settings',
    session,
    current: 'settings',
    body: html`
${errorBox(result.error)}
${result.saved ? html`<p class="notice" role="status">Settings saved.</p>` : ''}
<section class="card">
  <form method="post" action="/dashboard/settings">
    ${csrfField(session.csrfToken)}
    <h2>Exposed keys</h2>
    <label><input type="checkbox" name="auto_revoke_exposed" value="1"${s.autoRevokeExposed ? html` checked` : ''}> Revoke a key automatically when it is sent in a URL, a request body or a Referer header</label>
    <p class="hint">Off by default: the key is then marked exposed, and a banner asks you to roll it. On: it is refused from the next request on, which stops whatever still uses it.</p>
    <h2>Request log</h2>
    <label for="request_log_days">Keep requests for (days, 1–7)</label>
    <input id="request_log_days" name="request_log_days" type="number" min="1" max="7" value="${s.requestLogDays}">
    <label for="request_log_max">Keep at most (requests, 100–10 000)</label>
    <input id="request_log_max" name="request_log_max" type="number" min="100" max="10000" value="${s.requestLogMax}">
    <div><button type="submit">Save settings</button></div>
  </form>
</section>`,
  });
}
