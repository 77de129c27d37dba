import type { TSchema } from 'typebox';
import { ErrorEnvelope, FailEnvelope } from '#shared/schemas/common.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nested `anyOf`s flattened into one list of branches. */
function branchesOf(anyOf: unknown[]): Json[] {
  return anyOf.flatMap((branch) =>
    isObject(branch) && Array.isArray(branch.anyOf) && Object.keys(branch).length === 1 ? branchesOf(branch.anyOf) : isObject(branch) ? [branch] : [],
  );
}

function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!isObject(node)) return node;
  const { anyOf, ...rest } = node;
  if (Array.isArray(anyOf)) {
    const branches = branchesOf(anyOf);
    // anyOf of string constants (TypeBox unions of literals) → one string enum.
    if (branches.length > 0 && branches.every((b) => b.type === 'string' && typeof b.const === 'string')) {
      return { ...rest, type: 'string', enum: branches.map((b) => b.const) };
    }
    // anyOf [X, null] with a scalar X → X with type [x, 'null'].
    const nonNull = branches.filter((b) => b.type !== 'null');
    const only = nonNull[0];
    if (branches.length === 2 && nonNull.length === 1 && only !== undefined && typeof only.type === 'string' && only.type !== 'object' && only.type !== 'array') {
      return { ...rest, ...(simplify(only) as Json), type: [only.type, 'null'] };
    }
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, simplify(value)]));
}

/**
 * The same response schema, rewritten for fast serialization: fast-json-stringify runs a schema
 * validator on every value under an `anyOf` to pick the branch (per task: priority, status,
 * deadline), which made large lists several times slower. String-constant unions become
 * `enum`s and nullable scalars become `type: [x, "null"]` — equivalent JSON Schema, and just as
 * precise in the OpenAPI document. Static types are unchanged.
 */
export function serializable<T extends TSchema>(schema: T): T {
  // The same object for the same schema, so compiled serializers can be kept per schema object
  // (server/schema-compilers.ts) across builds of the app.
  let simplified = simplifiedOf.get(schema);
  if (simplified === undefined) {
    simplified = simplify(schema) as TSchema;
    simplifiedOf.set(schema, simplified);
  }
  return simplified as T;
}
const simplifiedOf = new WeakMap<TSchema, TSchema>();

/** Every route's error answers, for serialization and the OpenAPI document. */
export const errorResponses = {
  '4xx': serializable(FailEnvelope),
  '5xx': serializable(ErrorEnvelope),
} as const;

export const sessionSecurity = [{ session: [] }];
