/**
 * Baseline L1: a bare Fastify app (no logger, no hooks, no schemas) with one
 * route answering every GET with one precomputed body (BODY_FILE): the cost of
 * the framework alone. Prints "ready" once listening on PORT.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.env.BODY_FILE!);
const app = Fastify({ logger: false });
app.get('/*', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
