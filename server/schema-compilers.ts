import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** What Fastify hands a validator or serializer compiler for each schema of a route. */
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
  httpStatus?: string;
}
type Compile = (route: RouteSchema) => unknown;
type Build = (externalSchemas: Record<string, unknown>, options?: Record<string, unknown> & { customOptions?: Record<string, unknown> }) => Compile;

/**
 * Compiled functions kept per schema object for the life of the process. Route schemas are
 * module-level constants, so every build of the app (each instance in one process: a test file
 * builds one per test, `bench/` several) compiles each schema once instead of once per build —
 * compiling the response serializers and validators was most of what building the app cost.
 * Kept only when there are no shared schemas (`addSchema`: none today) and per set of options,
 * so a cached function is always the one this build would have compiled.
 */
function cached(build: Build, part: (route: RouteSchema) => string): Build {
  const byOptions = new Map<string, WeakMap<object, Map<string, unknown>>>();
  return (externalSchemas, options = {}) => {
    const compile = build(externalSchemas, options);
    if (Object.keys(externalSchemas).length > 0) return compile;
    // Functions (Ajv's onCreate) do not show in the key; they are the same for every build.
    const key = JSON.stringify(options);
    let bySchema = byOptions.get(key);
    if (bySchema === undefined) byOptions.set(key, (bySchema = new WeakMap()));
    const schemas = bySchema;
    return (route) => {
      if (typeof route.schema !== 'object' || route.schema === null) return compile(route);
      let compiled = schemas.get(route.schema);
      if (compiled === undefined) schemas.set(route.schema, (compiled = new Map<string, unknown>()));
      const name = part(route);
      if (!compiled.has(name)) compiled.set(name, compile(route));
      return compiled.get(name);
    };
  };
}

// The package's types describe the compiled function as compile(schema); at run time Fastify
// and the pool pass the route definition above (lib/validator-compiler.js, buildValidatorFunction).
const pool = AjvCompiler() as unknown as Build;

/**
 * Fastify's Ajv coerces types by default: a number sent as a title became text, `[x]` became x,
 * `null` became "". JSON bodies carry real types, so a body of the wrong type is refused (400
 * naming the field) instead: bodies are validated by an Ajv without coercion. Query strings and
 * path parameters are text by nature (`?limit=50`) and keep it. Every other option, format and
 * shared schema is the same for both (Fastify's own compiler pool builds them).
 * @see https://fastify.dev/docs/latest/Reference/Validation-and-Serialization/#validator-compiler
 * @see https://github.com/fastify/ajv-compiler
 */
const validators: Build = (externalSchemas, options = {}) => {
  const strict = pool(externalSchemas, { ...options, customOptions: { ...options.customOptions, coerceTypes: false } });
  const lenient = pool(externalSchemas, { ...options, customOptions: { ...options.customOptions } });
  return (route) => (route.httpPart === 'body' ? strict(route) : lenient(route));
};

export const buildValidator = cached(validators, (route) => route.httpPart ?? '') as unknown as ValidatorFactory;

/** Fastify's own serializer compiler (fast-json-stringify), kept per schema object like the validators. */
export const buildSerializer = cached(SerializerSelector() as unknown as Build, (route) => route.httpStatus ?? '') as unknown as SerializerFactory;
