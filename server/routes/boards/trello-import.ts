import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BOARD_POLICY, LIMITS } from '#shared/constants.ts';
import { trelloImportedMessage } from '#shared/import-messages.ts';
import { TrelloImportEnvelope } from '#shared/schemas/trello-import.ts';
import { HOUR } from '../../clock.ts';
import { AppError, rateLimited } from '../../errors.ts';
import { WindowCounter } from '../../plugins/rate-limit.ts';
import { actorOf } from '../../services/actor.ts';
import { readTrelloExport, tooLarge } from '../../services/trello-export.ts';
import { checkBoardLimit, writeImport } from '../../services/trello-import.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { translateFor } from '../../i18n/request-language.ts';

/**
 * `POST /boards/import/trello`: a Trello board export becomes a new shared board. The one route
 * whose body may be 20 MB: in this plugin's scope a JSON body is not parsed by Fastify but handed
 * over as the raw request stream, which services/trello-export.ts reads token by token (so the
 * export is never held whole, let alone as text and objects at once) and stops reading past the
 * limit. Every other route keeps the app's 16 KB limit and its JSON parser.
 */
/** Imports one account may start per hour (each reads up to 20 MB and writes thousands of rows). */
export const TRELLO_IMPORTS_PER_HOUR = 20;

const trelloImport: FastifyPluginAsyncTypebox = (fastify) => {
  // Counted in the database, so every instance shares the limit.
  const imports = new WindowCounter(fastify, 'trello-import', TRELLO_IMPORTS_PER_HOUR, HOUR);
  fastify.addHook('onRequest', fastify.authenticate);
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', (_request, payload, done) => {
    done(null, payload);
  });

  fastify.post(
    '/boards/import/trello',
    {
      bodyLimit: LIMITS.importMaxBytes,
      schema: {
        tags: ['boards'],
        summary: 'Import a Trello board export (JSON) as a new shared board; I am its admin',
        description:
          `The body is the JSON of Trello's "Export as JSON", at most ${LIMITS.importMaxBytes / 1024 / 1024} MB (413 PAYLOAD_TOO_LARGE past it; ` +
          'any other content type: 415). Each open card on an open list becomes a task assigned to me (name → taskTitle, list name → ' +
          'workTitle, desc → description, due → deadline, done when dueComplete or its list is named done/complete/completed/finished); ' +
          'the board\'s columns are the open lists in Trello\'s order (a list named like done/complete/finished is `done`, the others `todo`; ' +
          'names made unique, at most 20), with "Tasks To Do" / "Completed" added only when no list has that category; each column\'s cards ' +
          'in Trello\'s order, a card marked complete on a `todo` list in the first `done` column; ' +
          'labels keep their colors (unnamed ones are named after their color); checklists become checklist items in order; ' +
          'comments become comments by me, "<member name>: <text>", oldest first. Archived cards and lists, attachments, members, ' +
          'custom fields, votes, stickers and other actions are skipped. Texts longer than the API allows are shortened (and the ' +
          'answer says how many). Not JSON: 400 MALFORMED_JSON; not a Trello export or a field of the wrong type: 400 ' +
          'VALIDATION_FAILED listing the fields; nothing is imported then. At most ' +
          `${BOARD_POLICY.maxSharedBoardsPerAccount} shared boards per account (409 LIMIT_REACHED); at most ${TRELLO_IMPORTS_PER_HOUR} imports ` +
          'per account per hour, refused ones included (429 with Retry-After).',
        security: sessionSecurity,
        consumes: ['application/json'],
        response: { 201: serializable(TrelloImportEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      if (Number(request.headers['content-length'] ?? 0) > LIMITS.importMaxBytes) throw tooLarge();
      const body = request.body as Readable | undefined;
      if (body === undefined) throw new AppError(400, 'MALFORMED_JSON', SERVER_MESSAGES.malformedJson);
      // Before reading 20 MB: an account already on its most boards is answered at once.
      await checkBoardLimit(fastify, actor);
      const waitMs = await imports.hit(actor.userId);
      if (waitMs > 0) throw rateLimited(waitMs);
      const plan = await readTrelloExport(body, LIMITS.importMaxBytes);
      const { board, counts } = await writeImport(fastify, actor, plan);
      return reply.code(201).send({ status: 'success', message: translateFor(request, trelloImportedMessage(counts, plan.notes)), data: { board, counts } });
    },
  );
  return Promise.resolve();
};

export default trelloImport;
