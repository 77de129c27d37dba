import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BOARD_MESSAGES } from '#shared/board-messages.ts';
import { BOARD_POLICY } from '#shared/constants.ts';
import { normalizeEmail } from '#shared/email.ts';
import {
  AddMemberBody,
  BoardDetailEnvelope,
  BoardNamesEnvelope,
  BoardNamesListEnvelope,
  BoardNamesQuery,
  BoardEnvelope,
  BoardListEnvelope,
  BoardParams,
  CreateBoardBody,
  MemberEnvelope,
  MemberParams,
  UpdateBoardBody,
  UpdateMemberBody,
} from '#shared/schemas/boards.ts';
import { checkBoardDescription, checkBoardName, checkEmail } from '#shared/validation.ts';
import { addedMessage } from '../../services/boards.ts';
import { actorOf } from '../../services/actor.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

const NOT_A_MEMBER = 'Anyone who is not an active member of the board gets 404, as for a board that does not exist.';
const ADMIN_ONLY = `${NOT_A_MEMBER} A member or viewer gets 403 FORBIDDEN.`;
const PERSONAL = 'A personal board answers 400 PERSONAL_BOARD.';
const KEEPS_AN_ADMIN = 'A board always keeps at least one active admin: 409 LAST_ADMIN, and nothing changes.';

/**
 * Boards and their members. Board JSON carries the signed-in person's role and the counts of
 * the board's tasks; what each role may do is decided in services/boards.ts.
 */
const boards: FastifyPluginAsyncTypebox = (fastify) => {
  const service = fastify.boards;
  fastify.addHook('onRequest', fastify.authenticate);

  fastify.get(
    '/boards',
    {
      schema: {
        tags: ['boards'],
        summary: 'The boards I am an active member of: my personal board first, then by name',
        description: 'Each with my role, its member count (active and invited) and the counts of its tasks (to do, done, overdue).',
        security: sessionSecurity,
        response: { 200: serializable(BoardListEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: { boards: await service.list(actorOf(request)) } }) as const,
  );

  fastify.post(
    '/boards',
    {
      schema: {
        tags: ['boards'],
        summary: 'Create a shared board; I am its first admin',
        description:
          'Name trimmed, 1 to 80 characters; description trimmed, at most 1,000. An account can be on at most ' +
          `${BOARD_POLICY.maxSharedBoardsPerAccount} shared boards (active or invited): past that, 409 LIMIT_REACHED.`,
        security: sessionSecurity,
        body: CreateBoardBody,
        response: { 201: serializable(BoardEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const fields = checkFields({
        name: checkBoardName(request.body.name),
        description: checkBoardDescription(request.body.description ?? ''),
      });
      const board = await service.create(actorOf(request), fields);
      return reply.code(201).send({ status: 'success', message: translateFor(request, BOARD_MESSAGES.boardCreated), data: { board } });
    },
  );

  fastify.get(
    '/boards/:id',
    {
      schema: {
        tags: ['boards'],
        summary: 'A board and its members (active and invited, longest-standing first)',
        description: NOT_A_MEMBER,
        security: sessionSecurity,
        params: BoardParams,
        response: { 200: serializable(BoardDetailEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: await service.get(actorOf(request), request.params.id) }) as const,
  );

  fastify.get(
    '/boards/names',
    {
      schema: {
        tags: ['boards'],
        summary: 'The names of several boards at once (as `GET /api/boards/:id/names` answers each)',
        description:
          'For the boards among `ids` that the viewer is an active member of or holds a task of (as its assignee); the others, and ids that do not exist, ' +
          'are left out rather than answered 404, so one request serves every card of "All my tasks".',
        security: sessionSecurity,
        querystring: BoardNamesQuery,
        response: { 200: serializable(BoardNamesListEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: { boards: await service.namesOfMany(actorOf(request), request.query.ids.split(',')) } }) as const,
  );

  fastify.get(
    '/boards/:id/names',
    {
      schema: {
        tags: ['boards'],
        summary: "A board's name and its columns' names, for anyone who sees a task on it",
        description:
          'For an active member, and for the assignee of one of its tasks who is not on the board (their cards in "All my tasks" name the board and column); nothing else of the board. Anyone else gets 404, as for a board that does not exist.',
        security: sessionSecurity,
        params: BoardParams,
        response: { 200: serializable(BoardNamesEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: { board: await service.names(actorOf(request), request.params.id) } }) as const,
  );

  fastify.patch(
    '/boards/:id',
    {
      schema: {
        tags: ['boards'],
        summary: 'Rename or describe a board (admin)',
        description: `${ADMIN_ONLY} ${PERSONAL}`,
        security: sessionSecurity,
        params: BoardParams,
        body: UpdateBoardBody,
        response: { 200: serializable(BoardEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { name, description } = request.body;
      const fields = checkFields({
        ...(name === undefined ? {} : { name: checkBoardName(name) }),
        ...(description === undefined ? {} : { description: checkBoardDescription(description) }),
      });
      const board = await service.update(actorOf(request), request.params.id, fields);
      return { status: 'success', message: translateFor(request, BOARD_MESSAGES.boardSaved), data: { board } } as const;
    },
  );

  fastify.delete(
    '/boards/:id',
    {
      schema: {
        tags: ['boards'],
        summary: 'Delete a board with its tasks, their comments and activity (admin): 204',
        description: `${ADMIN_ONLY} ${PERSONAL}`,
        security: sessionSecurity,
        params: BoardParams,
        response: { 204: Type.Null({ description: 'Deleted; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  fastify.post(
    '/boards/:id/members',
    {
      schema: {
        tags: ['boards'],
        summary: 'Add an address with a role (admin); it gets an "added you" mail',
        description:
          `${ADMIN_ONLY} ${PERSONAL} An address already on the board: 409 ALREADY_MEMBER. Without an account the member is ` +
          '"invited" and becomes active when an account is made with the address. ' +
          `At most ${BOARD_POLICY.maxMembers.toLocaleString('en')} members per board and ${BOARD_POLICY.maxSharedBoardsPerAccount} shared boards per address ` +
          `(409 LIMIT_REACHED); at most ${BOARD_POLICY.maxMemberAdditionsPerHour} additions per account per hour across boards (429 with Retry-After).`,
        security: sessionSecurity,
        params: BoardParams,
        body: AddMemberBody,
        response: { 201: serializable(MemberEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email } = checkFields({ email: checkEmail(request.body.email) });
      const { member, mailHeld } = await service.addMember(actorOf(request), request.params.id, email, request.body.role);
      return reply.code(201).send({ status: 'success', message: translateFor(request, addedMessage(member, mailHeld)), data: { member } });
    },
  );

  fastify.patch(
    '/boards/:id/members/:email',
    {
      schema: {
        tags: ['boards'],
        summary: "Change a member's role (admin)",
        description: `${ADMIN_ONLY} ${PERSONAL} ${KEEPS_AN_ADMIN}`,
        security: sessionSecurity,
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: serializable(MemberEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const member = await service.changeRole(actorOf(request), request.params.id, normalizeEmail(request.params.email), request.body.role);
      return { status: 'success', message: translateFor(request, BOARD_MESSAGES.roleChanged), data: { member } } as const;
    },
  );

  fastify.delete(
    '/boards/:id/members/:email',
    {
      schema: {
        tags: ['boards'],
        summary: 'Remove a member (admin), or leave the board (my own address): 204',
        description: `${NOT_A_MEMBER} Removing someone else needs the admin role (else 403 FORBIDDEN). ${PERSONAL} ${KEEPS_AN_ADMIN}`,
        security: sessionSecurity,
        params: MemberParams,
        response: { 204: Type.Null({ description: 'Removed; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.removeMember(actorOf(request), request.params.id, normalizeEmail(request.params.email));
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

export default boards;
