import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS, PRIORITIES, STATUSES } from '#shared/constants.ts';
import type { ErrorCode } from '#shared/error-codes.ts';
import { asMessage, message, text, type Translatable } from '#shared/i18n.ts';
import { HOUR_CYCLES, WEEK_STARTS } from '#shared/languages.ts';
import { ATTACHMENT_MESSAGES } from '#shared/attachment-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, validationFailed, type FieldError } from '../errors.ts';
import { requestLanguage } from '../i18n/request-language.ts';
import { translate } from '../i18n/translate.ts';

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/**
 * How a sentence about a field names it: a label people read (translated before it is put into
 * the sentence), or the field's own name where that is what the caller typed (`limit`, `cursor`).
 */
const FIELD_LABELS: Record<string, Translatable> = {
  email: text('E-mail'),
  fullName: text('Full name'),
  otp: text('Code'),
  password: text('Password'),
  taskTitle: text('Task title'),
  workTitle: text('Work title'),
  assignee: text('Assignee'),
  deadline: text('Deadline'),
  priority: text('Priority'),
  status: text('Status'),
};

const ENUMS: Record<string, readonly string[]> = {
  priority: PRIORITIES,
  status: STATUSES,
  weekStart: WEEK_STARTS,
  hourCycle: HOUR_CYCLES,
};

function fieldOf(issue: ValidationIssue): string {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing = issue.params.missingProperty;
  if (issue.keyword === 'required' && typeof missing === 'string') return path === '' ? missing : `${path}.${missing}`;
  return path;
}

/** Ajv's messages are for developers; these are for the people reading the form. */
function messageOf(fieldPath: string, issue: ValidationIssue, context: string | undefined): Translatable {
  const name = fieldPath.split('.').at(-1) ?? fieldPath;
  const labelled = FIELD_LABELS[name];
  // A label is translated; a field's own name (a machine word) is put in as it is.
  const field = labelled === undefined ? name : asMessage(labelled);
  if (fieldPath === '') {
    return context === 'body' ? text('The request body must be a JSON object.') : message('The {part} is invalid.', { part: context ?? 'request' });
  }
  if (name === 'limit') return message('limit must be a whole number from {min} to {max}.', { min: LIMITS.pageMin, max: LIMITS.pageMax });
  const allowed = ENUMS[name];
  if (allowed !== undefined) {
    const values = allowed.join(', ');
    return name === 'priority' && context === 'querystring'
      ? message('{field} must be one of: {values} (or empty for all).', { field, values })
      : message('{field} must be one of: {values}.', { field, values });
  }
  switch (issue.keyword) {
    case 'required':
      return message('{field} is required.', { field });
    case 'format':
      return issue.params.format === 'email' ? text('Enter a valid e-mail address.') : message('{field} is not in the expected format.', { field });
    case 'maxLength':
      return message('{field} must be at most {max, plural, one {# character} other {# characters}}.', { field, max: Number(issue.params.limit) });
    case 'minLength':
      return message('{field} must be at least {min, plural, one {# character} other {# characters}}.', { field, min: Number(issue.params.limit) });
    case 'type':
      return issue.params.type === 'string' ? message('{field} must be text.', { field }) : message('{field} must be of type {type}.', { field, type: String(issue.params.type) });
    default:
      return message('{field} is invalid.', { field });
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

const FRAMEWORK_CODES: Record<string, { status: number; code: ErrorCode; message: Translatable }> = {
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

/** The JSend envelope of a 404 (the web-app plugin's fallback, and malformed URLs), in the reader's language. */
export function sendApiNotFound(reply: FastifyReply): FastifyReply {
  const message = translate(requestLanguage(reply.request), SERVER_MESSAGES.routeNotFound);
  return reply.code(404).type('application/json; charset=utf-8').send({ status: 'fail', code: 'NOT_FOUND', message });
}

/**
 * The one error handler: AppError, schema validation and framework errors become the JSend
 * envelope. 4xx are the client's (`fail`, logged at info); 5xx are ours (`error`, logged with
 * the request, answered with a fixed sentence so no stack trace, SQL or driver text leaks). The
 * message and every field's message are written in the reader's language (requestLanguage);
 * the log keeps the English.
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
      const language = requestLanguage(request);
      const message = translate(language, appError.text);
      if (appError.status >= 500) {
        return reply.send({ status: 'error', code: appError.code, message });
      }
      return reply.send({
        status: 'fail',
        code: appError.code,
        message,
        ...(appError.errors === undefined ? {} : { errors: appError.errors.map(({ field, message: problem }) => ({ field, message: translate(language, problem) })) }),
        ...(appError.data === undefined ? {} : { data: appError.data }),
      });
    });
    done();
  },
  { name: 'error-handler' },
);
