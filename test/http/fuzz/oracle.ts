/**
 * What every answer to a fuzzed request must satisfy: no 5xx; a Request-Id;
 * errors in the one JSON shape with a code from the closed set at its
 * documented status, or, under /dashboard, an HTML page; and no key that the
 * request carried echoed back.
 */
import assert from 'node:assert/strict';
import { assertHtmlErrorPage, assertJsonError, REQUEST_ID, type AnyResponse } from '../../helpers/error-shape.ts';
import { describeRequest, type FuzzRequest } from './requests.ts';

const KEY_SHAPE = /svc_(?:live|test)_[A-Za-z0-9]{32}/g;

function isDashboardPath(url: string): boolean {
  const path = url.split('?')[0]!;
  return path === '/dashboard' || path.startsWith('/dashboard/');
}

/** Tallies of what the answers were, so a run can show it reached past the first checks. */
export class Coverage {
  readonly statuses = new Map<number, number>();
  readonly codes = new Map<string, number>();
  htmlErrors = 0;
  add(status: number, code?: string): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (code) this.codes.set(code, (this.codes.get(code) ?? 0) + 1);
  }
  summary(): string {
    const sorted = (m: Map<string | number, number>) =>
      [...m]
        .sort(([a], [b]) => String(a).localeCompare(String(b)))
        .map(([k, n]) => `${k}:${n}`)
        .join(' ');
    return `statuses ${sorted(this.statuses)}; codes ${sorted(this.codes)}; HTML error pages ${this.htmlErrors}`;
  }
}

/**
 * Checks one answer. `seenUrl` is the request target as the server saw it
 * (inject() normalises the URL it is given). `parserMayRefuse`: the request was
 * malformed HTTP, which Node's parser answers with the JSON 400 before any
 * route is known, so a dashboard path may get JSON instead of a page.
 */
export function checkAnswer(request: FuzzRequest, seenUrl: string, res: AnyResponse, coverage: Coverage, parserMayRefuse = false): void {
  const what = `${describeRequest(request)} → ${res.status}`;
  assert.ok(res.status >= 100 && res.status < 500, `${what}: ${res.body.slice(0, 300)}`);
  if (res.status < 200) return;
  assert.match(res.header('request-id') ?? '', REQUEST_ID, `${what}: Request-Id`);
  let code: string | undefined;
  if (res.status >= 400) {
    const dashboard = parserMayRefuse ? /^text\/html/.test(res.header('content-type') ?? '') : isDashboardPath(seenUrl);
    if (request.method === 'HEAD') {
      assert.match(res.header('content-type') ?? '', dashboard ? /^text\/html/ : /^application\/json/, `${what}: Content-Type`);
    } else if (dashboard) {
      assertHtmlErrorPage(res, what);
      coverage.htmlErrors++;
    } else {
      code = assertJsonError(res, what).code;
    }
  }
  coverage.add(res.status, code);
  const sent = [request.url, ...request.headers.map(([, v]) => v)].join('\n');
  for (const [key] of sent.matchAll(KEY_SHAPE)) assert.ok(!res.body.includes(key.slice(9)), `${what}: a key the request carried is echoed`);
}

/** Collects unhandled rejections and uncaught exceptions while a run lasts. */
export function watchForCrashes(): { problems: unknown[]; stop(): void } {
  const problems: unknown[] = [];
  const record = (error: unknown) => problems.push(error);
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
  return {
    problems,
    stop() {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    },
  };
}
