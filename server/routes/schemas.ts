import { ErrorEnvelope, FailEnvelope } from '#shared/schemas/common.ts';

/** Every route's error answers, for serialization and the OpenAPI document. */
export const errorResponses = {
  '4xx': FailEnvelope,
  '5xx': ErrorEnvelope,
} as const;

export const sessionSecurity = [{ session: [] }];
