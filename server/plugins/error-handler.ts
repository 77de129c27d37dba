import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS, PRIORITIES, STATUSES } from '#shared/constants.ts';
import type { ErrorCode } from '#shared/error-codes.ts';
import { ATTACHMENT_MESSAGES } from '#shared/attachment-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { FieldError } from '#shared/schemas/common.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, validationFailed } from '../errors.ts';

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

const FIELD_LABELS: Record<string, string> = {
  email: 'E-mail',
  fullName: 'Full name',
  otp: 'Code',
  password: 'Password',
  taskTitle: 'Task title',
  workTitle: 'Work title',
  assignee: 'Assignee',
  deadline: 'Deadline',
  priority: 'Priority',
  status: 'Status',
  limit: 'limit',
  cursor: 'cursor',
  id: 'id',
};

const ENUMS: Record<string, readonly string[]> = {
  priority: PRIORITIES,
  status: STATUSES,
};

function fieldOf(issue: ValidationIssue): string {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing = issue.params.missingProperty;
  if (issue.keyword === 'required' && typeof missing === 'string') return path === '' ? missing : `${path}.${missing}`;
  return path;
}

/** Ajv's messages are for developers; these are for the people reading the form. */
function messageOf(field: string, issue: ValidationIssue, context: string | undefined): string {
  const name = field.split('.').at(-1) ?? field;
  const label = FIELD_LABELS[name] ?? name;
  if (field === '') {
    return context === 'body' ? 'The request body must be a JSON object.' : `The ${context ?? 'request'} is invalid.`;
  }
  if (name === 'limit') return `limit must be a whole number from ${LIMITS.pageMin} to ${LIMITS.pageMax}.`;
  const allowed = ENUMS[name];
  if (allowed !== undefined) return `${label} must be one of: ${allowed.join(', ')}${name === 'priority' && context === 'querystring' ? ' (or empty for all)' : ''}.`;
  switch (issue.keyword) {
    case 'required':
      return `${label} is required.`;
    case 'format':
      return issue.params.format === 'email' ? 'Enter a valid e-mail address.' : `${label} is not in the expected format.`;
    case 'maxLength':
      return `${label} must be at most ${String(issue.params.limit)} characters.`;
    case 'minLength':
      return `${label} must be at least ${String(issue.params.limit)} characters.`;
    case 'type':
      return `${label} must be ${issue.params.type === 'string' ? 'text' : `of type ${String(issue.params.type)}`}.`;
    default:
      return `${label} is invalid.`;
  }
}

/** Ajv issues → one `{field, message}` per field, in request order. */
export function toFieldErrors(issues: readonly ValidationIssue[], context: string | undefined): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const issue of issues) {
    const field = fieldOf(issue);
    if (!byField.has(field)) byField.set(field, { field: field === '' ? (context ?? 'body') : field, message: messageOf(field, issue, context) });
  }
  return [...byField.values()];
}

const FRAMEWORK_CODES: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: SERVER_MESSAGES.payloadTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: SERVER_MESSAGES.unsupportedMediaType },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: SERVER_MESSAGES.malformedJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: SERVER_MESSAGES.malformedJson },
  // A file upload (@fastify/multipart): one file part and nothing else.
  FST_PARTS_LIMIT: { status: 400, code: 'VALIDATION_FAILED', message: ATTACHMENT_MESSAGES.oneFileOnly },
  FST_FILES_LIMIT: { status: 400, code: 'VALIDATION_FAILED', message: ATTACHMENT_MESSAGES.oneFileOnly },
  FST_FIELDS_LIMIT: { status: 400, code: 'VALIDATION_FAILED', message: ATTACHMENT_MESSAGES.noFileSent },
  FST_PROTO_VIOLATION: { status: 400, code: 'VALIDATION_FAILED', message: ATTACHMENT_MESSAGES.noFileSent },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: ATTACHMENT_MESSAGES.noFileSent },
  FST_MP_PREMATURE_CLOSE: { status: 400, code: 'UPLOAD_INCOMPLETE', message: ATTACHMENT_MESSAGES.uploadCutOff },
};

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  401: 'NOT_AUTHENTICATED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** A refused or missing path (e.g. @fastify/static refusing a dot file or `..`) looks like any missing page. */
const routeNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.routeNotFound);

function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation !== undefined) {
    return validationFailed(toFieldErrors(fastifyError.validation, fastifyError.validationContext));
  }
  const known = fastifyError.code === undefined ? undefined : FRAMEWORK_CODES[fastifyError.code];
  if (known !== undefined) return new AppError(known.status, known.code, known.message);
  // A JSON body whose nesting or keys the parser refuses (e.g. __proto__) is still bad input.
  if (error instanceof SyntaxError) return new AppError(400, 'MALFORMED_JSON', SERVER_MESSAGES.malformedJson);
  if (isDatabaseUnavailable(error)) return new AppError(503, 'SERVICE_UNAVAILABLE', SERVER_MESSAGES.serviceUnavailable);
  const status = fastifyError.statusCode ?? 500;
  if (status === 403 || status === 404 || fastifyError.code === 'FST_ERR_BAD_URL') return routeNotFound();
  if (status >= 400 && status < 500) {
    return new AppError(status, CODE_BY_STATUS[status] ?? 'VALIDATION_FAILED', SERVER_MESSAGES.validationFailed);
  }
  if (status === 503) return new AppError(503, 'SERVICE_UNAVAILABLE', SERVER_MESSAGES.serviceUnavailable);
  return new AppError(500, 'INTERNAL_ERROR', SERVER_MESSAGES.internalError);
}

/** The JSend envelope of a 404 (the web-app plugin's fallback, and malformed URLs). */
export function sendApiNotFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('application/json; charset=utf-8').send({ status: 'fail', code: 'NOT_FOUND', message: SERVER_MESSAGES.routeNotFound });
}

/**
 * The one error handler: AppError, schema validation and framework errors become the JSend
 * envelope. 4xx are the client's (`fail`, logged at info); 5xx are ours (`error`, logged with
 * the request, answered with a fixed sentence so no stack trace, SQL or driver text leaks).
 * @see https://github.com/fastify/demo/blob/main/src/app.ts
 */
export default fp(
  (fastify, _opts, done) => {
    fastify.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
      const appError = toAppError(error);
      if (appError.status === 503) {
        // Deliberate 503s (health check, mail) were logged where they were raised.
        if (!(error instanceof AppError)) request.log.warn({ code: (error as Partial<FastifyError>).code, message: error.message }, 'Service unavailable');
      } else if (appError.status >= 500) {
        request.log.error({ err: error }, 'Request failed');
      } else {
        request.log.info({ code: appError.code, status: appError.status }, appError.message);
      }
      for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value);
      reply.code(appError.status);
      if (appError.status >= 500) {
        return reply.send({ status: 'error', code: appError.code, message: appError.message });
      }
      return reply.send({
        status: 'fail',
        code: appError.code,
        message: appError.message,
        ...(appError.errors === undefined ? {} : { errors: appError.errors }),
        ...(appError.data === undefined ? {} : { data: appError.data }),
      });
    });
    done();
  },
  { name: 'error-handler' },
);
