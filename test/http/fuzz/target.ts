/**
 * The service the fuzz tests attack, and what they know about it: every route
 * as the app itself lists it, and real values to mix into generated requests
 * (valid, test, revoked and unknown keys, dashboard sessions with their CSRF
 * tokens, cursors, code ids), so that requests get past the first checks.
 */
import { createKey, revokeKey } from '../../../src/services/access/admin.ts';
import { resumeSession, startSession } from '../../../src/services/dashboard/sessions.ts';
import { createUser, setPasswordWithToken } from '../../../src/services/dashboard/users.ts';
import { createTestContext, type TestContext } from '../../helpers/context.ts';

export interface Route {
  /** As Fastify lists it: `/v1/codes/:code_id`, `/dashboard/*`. */
  path: string;
  methods: string[];
}

export interface Session {
  cookie: string;
  csrf: string;
}

export interface FuzzTarget {
  ctx: TestContext;
  routes: Route[];
  /** Query parameters per route, from the app's OpenAPI document (Fastify's path syntax). */
  queryParams: Map<string, string[]>;
  keys: { valid: string; test: string; revoked: string; unknown: string };
  /** Ids of keys that requests may revoke through the dashboard (never the valid key's). */
  spareKeyIds: string[];
  sessions: Session[];
  cursors: string[];
  codeIds: string[];
  email: string;
}

/**
 * Every route of the app with its methods, read from Fastify's own listing
 * (printRoutes), so that routes added later are attacked without editing the test.
 */
export function routesOf(listing: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of listing.split('\n')) {
    if (line.trim() === '') continue;
    const start = line.search(/[^│├└─ ]/);
    const depth = start / 4;
    const match = /^(\S+)(?: \(([^)]*)\))?$/.exec(line.slice(start));
    if (!Number.isInteger(depth) || !match) throw new Error(`unexpected line in the route listing: ${line}`);
    stack.length = depth;
    stack[depth] = match[1]!;
    if (match[2]) routes.push({ path: stack.join(''), methods: match[2].split(', ') });
  }
  return routes;
}

export const FUZZ_PASSWORD = 'the right password, never generated';

export async function fuzzTarget(): Promise<FuzzTarget> {
  const ctx = await createTestContext();
  const codes = ['A', 'A.1', 'B', 'x/y', 'é', 'Z 9'];
  await ctx.importRows(
    codes.map((code) => ({ code, display: `Code ${code}`, parents: code === 'A.1' ? 'A' : '' })),
    {
      system: 'demo',
      release: 'r1',
      effectiveDate: '2024-01-01',
    },
  );
  await ctx.importRows([{ code: 'A', display: 'Code A, revised' }], { system: 'demo', release: 'r2', effectiveDate: '2024-02-01' });

  const admin = ctx.deps.admin;
  const test = (await createKey(admin, ctx.org, 'test', 'fuzz test key')).key;
  const revokedKey = await createKey(admin, ctx.org, 'live', 'fuzz revoked key');
  await revokeKey(admin, revokedKey.info.id);
  const spareKeyIds: string[] = [];
  for (let i = 0; i < 5; i++) spareKeyIds.push((await createKey(admin, ctx.org, 'live', `spare ${i}`)).info.id);

  const email = 'fuzz@example.com';
  const { user, token } = await createUser(admin, ctx.org, email);
  await setPasswordWithToken(admin, token, FUZZ_PASSWORD);
  const sessions: Session[] = [];
  for (let i = 0; i < 8; i++) {
    const { token: cookie } = await startSession(admin, user);
    sessions.push({ cookie, csrf: (await resumeSession(admin, cookie))!.csrfToken });
  }

  const cursors: string[] = [];
  for (const url of ['/v1/codes?limit=1', '/v1/changes?limit=1', '/v1/codes/demo%3AA/changes?limit=1']) {
    cursors.push((await ctx.get(url)).json().pagination.next_cursor);
  }

  const openapi = (await ctx.app.inject({ url: '/openapi.json' })).json<{
    paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  }>();
  const queryParams = new Map(
    Object.entries(openapi.paths).map(([path, operations]) => [
      path.replace(/\{(\w+)\}/g, ':$1'),
      [...new Set(Object.values(operations).flatMap((o) => (o.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)))],
    ]),
  );

  return {
    ctx,
    routes: routesOf(ctx.app.printRoutes({ commonPrefix: false })),
    queryParams,
    keys: { valid: ctx.key, test, revoked: revokedKey.key, unknown: `svc_live_${'Q'.repeat(32)}` },
    spareKeyIds,
    sessions,
    cursors,
    codeIds: codes.map((c) => `demo:${c}`),
    email,
  };
}
