import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';

/** What Fastify hands a validator compiler for each schema of a route. */
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart: string;
}
type Compile = (route: RouteSchema) => unknown;
type Build = (externalSchemas: Record<string, unknown>, options?: { customOptions?: Record<string, unknown> }) => Compile;

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
const build: Build = (externalSchemas, options = {}) => {
  const strict = pool(externalSchemas, { ...options, customOptions: { ...options.customOptions, coerceTypes: false } });
  const lenient = pool(externalSchemas, { ...options, customOptions: { ...options.customOptions } });
  return (route) => (route.httpPart === 'body' ? strict(route) : lenient(route));
};

export const buildValidator = build as unknown as ValidatorFactory;
