/**
 * Route schemas compiled on first use instead of at start-up. Fastify compiles
 * every route's validators (Ajv) and response serializers
 * (fast-json-stringify) while the app gets ready: ~0.17 s of a ~1.1 s start,
 * for every route, of which a start needs none. Here each is compiled the
 * first time a request needs it, with the same compilers and options Fastify
 * would use, and then called directly; a route's first request pays its own
 * compile (a few milliseconds; the first validator of all also builds the Ajv
 * instance). compileAll() compiles whatever is still pending, so that a test
 * proves every schema compiles: a schema that does not compile no longer stops
 * the start, it fails its route's requests (500, internal_error), each with
 * the same error.
 *
 * Fastify treats any compiler given this way as a custom one, and then leaves
 * a request-header schema as written where it would lower-case its names (the
 * headers it is checked against are lower-case): none of our routes validates
 * request headers, and one that tried would fail at start-up here.
 */
import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions, FastifySchemaValidationError } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildValidator = (externalSchemas: unknown, options?: unknown) => (route: unknown) => Validate;
type BuildSerializer = (externalSchemas: unknown, options?: unknown) => (route: unknown) => (data: unknown) => string;

interface Validate {
  (data: unknown, context?: unknown): unknown;
  errors?: FastifySchemaValidationError[] | null;
}

export interface LazySchemas {
  /** For Fastify's `schemaController` option. */
  compilersFactory: CompilersFactory;
  /** Compiles every schema not compiled yet; returns how many it compiled. Throws what a compiler throws. */
  compileAll(): number;
}

export function lazySchemas(): LazySchemas {
  const pending = new Set<() => void>();
  /** The function compile() makes, made on first call (or by compileAll). */
  const later = <F>(compile: () => F): (() => F) => {
    let made: { value: F } | { error: unknown } | undefined;
    const make = () => {
      if (made === undefined) {
        try {
          made = { value: compile() };
        } catch (error) {
          made = { error };
        }
        pending.delete(make);
      }
      if ('error' in made) throw made.error;
      return made.value;
    };
    pending.add(make);
    return make;
  };

  const validators = ValidatorSelector();
  const buildValidator: BuildValidator = (externalSchemas, options) => {
    const compiler = later(() => validators(externalSchemas as never, options as never));
    return (route) => {
      if ((route as { httpPart?: string }).httpPart === 'headers') throw new Error('request-header schemas are not supported (lazy-schemas.ts)');
      const validate = later(() => compiler()(route as never) as unknown as Validate);
      // Fastify hands Ajv's validators (which have a schemaEnv) the request as the parent of the part
      // validated, so that coercion can replace the part itself; this passes that context on.
      const lazy: Validate & { schemaEnv: true } = Object.assign(
        (data: unknown, context?: unknown) => {
          const real = validate();
          const valid = real(data, context);
          lazy.errors = real.errors ?? null;
          return valid;
        },
        { schemaEnv: true as const, errors: null },
      );
      return lazy;
    };
  };

  const serializers = SerializerSelector();
  const buildSerializer: BuildSerializer = (externalSchemas, options) => {
    const compiler = later(() => serializers(externalSchemas as never, options as never));
    return (route) => {
      const serialize = later(() => compiler()(route as never) as (data: unknown) => string);
      return (data: unknown) => serialize()(data);
    };
  };

  return {
    compilersFactory: { buildValidator, buildSerializer } as CompilersFactory,
    compileAll() {
      let compiled = 0;
      // A route's schema that is compiled first also makes its compiler, which then leaves the set early.
      for (const make of [...pending]) {
        if (!pending.has(make)) continue;
        make();
        compiled++;
      }
      return compiled;
    },
  };
}
