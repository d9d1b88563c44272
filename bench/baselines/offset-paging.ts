/**
 * Baseline N: how a naive service pages — `LIMIT … OFFSET …` over the same
 * SQLite file (DATABASE_FILE). It answers GET /codes?limit=L&offset=K with the
 * same ready JSON records the service stores, so only the way of paging
 * differs: SQLite must step over K rows before it returns the page.
 * Prints "ready" once listening on PORT.
 */
import { createServer } from 'node:http';
import { DatabaseSync } from 'node:sqlite';

const db = new DatabaseSync(process.env.DATABASE_FILE!);
const page = db.prepare('SELECT json FROM codes ORDER BY id LIMIT ? OFFSET ?');
page.setReturnArrays(true);

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const limit = Math.min(200, Math.max(1, Number(url.searchParams.get('limit') ?? 50) || 50));
  const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
  const rows = page.all(limit + 1, offset) as unknown as [string][];
  const hasMore = rows.length > limit;
  const data = rows
    .slice(0, limit)
    .map((row) => row[0])
    .join(',');
  const next = hasMore ? `,"next_offset":${offset + limit}` : '';
  const body = `{"data":[${data}],"pagination":{"has_more":${hasMore}${next}}}`;
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
