/**
 * The check every test's requests go through (helpers/openapi.ts): a /v1
 * response that the OpenAPI document does not describe fails the request,
 * saying what differs. Shown on a small app that breaks its own document, and
 * the test context's app is a checked one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { createTestContext } from '../helpers/context.ts';
import { checkResponses, isChecked } from '../helpers/openapi.ts';

const ErrorBody = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } },
};

/** Documents GET /v1/things as 200 {n: integer} or 401 error; answers whatever ?answer= asks for. */
async function lyingApp(): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } } });
  const answers: Record<string, [number, string]> = {
    good: [200, '{"n":1}'],
    'wrong-type': [200, '{"n":"one"}'],
    'missing-field': [200, '{}'],
    'undocumented-status': [418, '{"error":{"code":"teapot","message":"short and stout"}}'],
    'documented-error': [401, '{"error":{"code":"invalid_api_key","message":"m"}}'],
    'error-not-in-shape': [401, '{"message":"no"}'],
  };
  app.get(
    '/v1/things',
    { schema: { response: { 200: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }, 401: ErrorBody } } },
    async (request, reply) => {
      const [status, body] = answers[(request.query as { answer: string }).answer]!;
      // A pre-serialised body bypasses the response schema, as the fast path does.
      return reply
        .code(status as 200)
        .type('application/json; charset=utf-8')
        .send(body);
    },
  );
  app.setNotFoundHandler(async (request, reply) => reply.code(404).type('text/plain').send('nothing here'));
  await app.ready();
  return checkResponses(app);
}

test('a response the document does not describe fails the request that got it, saying why', async () => {
  const app = await lyingApp();
  try {
    assert.equal((await app.inject('/v1/things?answer=good')).statusCode, 200);
    assert.equal((await app.inject('/v1/things?answer=documented-error')).statusCode, 401);
    await assert.rejects(app.inject('/v1/things?answer=wrong-type'), (e: Error) => {
      assert.match(e.message, /GET \/v1\/things\?answer=wrong-type answered 200: the body does not match the OpenAPI document/);
      assert.match(e.message, /at \/n: must be integer/);
      assert.match(e.message, /body: \{"n":"one"\}/);
      return true;
    });
    await assert.rejects(app.inject('/v1/things?answer=missing-field'), /must have required property 'n'/);
    await assert.rejects(
      app.inject('/v1/things?answer=undocumented-status'),
      /answered 418, a status the OpenAPI document does not list .*\(it lists 200, 401\)/,
    );
    await assert.rejects(app.inject('/v1/things?answer=error-not-in-shape'), /must have required property 'error'/);
    // A path the document does not have must still answer in the error shape.
    await assert.rejects(app.inject('/v1/elsewhere'), /no documented path.*says JSON|says JSON.*no documented path/s);
    // Outside /v1 the document says nothing, so nothing is checked.
    assert.equal((await app.inject('/elsewhere')).statusCode, 404);
  } finally {
    await app.close();
  }
});

test("the test context's app is checked, so every test's /v1 requests are", async () => {
  const ctx = await createTestContext();
  try {
    assert.ok(isChecked(ctx.app));
  } finally {
    await ctx.close();
  }
});
