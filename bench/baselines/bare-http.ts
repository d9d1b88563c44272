/**
 * Baseline L0: Node's bare http server answering every request with one
 * precomputed body (BODY_FILE) — the most a Node.js process can serve on this
 * machine at that response size. Prints "ready" once listening on PORT.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BODY_FILE!);
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
