import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_MESSAGES, ADMIN_POLICY, type AdminAction } from '#shared/admin.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { atAllowedDomain } from '#shared/registration.ts';
import {
  AccountEnvelope,
  AccountParams,
  AccountsEnvelope,
  AccountsQuery,
  AuditEnvelope,
  AuditQuery,
  InviteBody,
  SettingsEnvelope,
} from '#shared/schemas/admin.ts';
import { MessageEnvelope } from '#shared/schemas/common.ts';
import { checkEmail } from '#shared/validation.ts';
import { HOUR } from '../../clock.ts';
import type { Executor } from '../../db/prepared.ts';
import { AppError, rateLimited } from '../../errors.ts';
import { instanceInvitationMail } from '../../mail/templates.ts';
import { currentUser, type AuthUser } from '../../plugins/session.ts';
import { WindowCounter } from '../../plugins/rate-limit.ts';
import { createAdminRepository } from '../../repositories/admin-repository.ts';
import { bearerOf } from '../../services/api-tokens.ts';
import { describeSettings, isInstanceAdmin, resetSecondStep } from '../../services/admins.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable } from '../schemas.ts';
import { message, text, type Translatable } from '#shared/i18n.ts';
import { translateFor } from '../../i18n/request-language.ts';
import { storedLanguage } from '../../i18n/translate.ts';

/** What anyone who is not an instance admin gets for any /api/admin call: an unknown address. */
const hidden = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.routeNotFound);
const noAccount = () => new AppError(404, 'NOT_FOUND', text('There is no such account.'));

/**
 * The instance admin's API (the /admin page). Everyone else — signed out, signed in without the
 * rights, or calling with an API token — gets the 404 of an unknown address, so the API does not
 * say it is there (docs/decisions/160-instance-admins.md). The calls are left out of the public
 * OpenAPI document for the same reason. Every change is written to the audit log in its own
 * transaction, and counted against the admin's hourly limit of actions (across instances).
 */
const admin: FastifyPluginAsyncTypebox = (fastify) => {
  const { clock, config, sessions } = fastify;
  const repo = createAdminRepository(fastify.db, fastify.dbDialect);
  const actions = new WindowCounter(fastify, 'admin-action', ADMIN_POLICY.maxActionsPerHour, HOUR);

  // Before the body is read or validated: a stranger learns nothing from a bad body either.
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (bearerOf(request.headers.authorization) !== undefined) throw hidden();
    try {
      await fastify.authenticate.call(fastify, request, reply);
    } catch {
      // As an unknown address answers: no cookie cleared or renewed.
      reply.removeHeader('set-cookie');
      throw hidden();
    }
    const account = await repo.findAccount(currentUser(request).id);
    if (account === undefined || !isInstanceAdmin(config, account)) {
      reply.removeHeader('set-cookie');
      throw hidden();
    }
  });

  const nowIso = () => clock.now().toISOString();
  const countAction = async (actor: AuthUser) => {
    const wait = await actions.hit(actor.id);
    if (wait > 0) throw rateLimited(wait);
  };
  const accountAnswer = async (request: FastifyRequest<{ Params: { id: string } }>, said: Translatable) => {
    const { accounts } = await repo.listAccounts({ q: '', page: 1, adminEmails: config.adminEmails, id: request.params.id });
    const account = accounts[0];
    if (account === undefined) throw noAccount();
    return { status: 'success', message: translateFor(request, said), data: { account } } as const;
  };
  /**
   * One change to an account: `change` runs in a transaction with the account found; when it
   * changed something (true), the audit entry is written in the same transaction.
   */
  const changeAccount = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    action: AdminAction,
    change: (account: { id: string; email: string }, trx: Executor, at: string) => Promise<boolean>,
  ): Promise<boolean> => {
    const actor = currentUser(request);
    await countAction(actor);
    const at = nowIso();
    return fastify.db.transaction().execute(async (trx) => {
      const account = await repo.findAccount(request.params.id, trx);
      if (account === undefined) throw noAccount();
      const changed = await change(account, trx, at);
      if (changed) await repo.record({ actorId: actor.id, actorEmail: actor.email, action, subjectEmail: account.email }, at, trx);
      return changed;
    });
  };

  const accountSchema = (summary: string, description: string) => ({
    hide: true,
    tags: ['admin'],
    summary,
    description,
    params: AccountParams,
    response: { 200: serializable(AccountEnvelope), ...errorResponses },
  });

  fastify.get(
    '/admin/accounts',
    { schema: { hide: true, tags: ['admin'], summary: 'Accounts, with search and pages', querystring: AccountsQuery, response: { 200: serializable(AccountsEnvelope), ...errorResponses } } },
    async (request) => {
      const page = request.query.page ?? 1;
      const { accounts, total } = await repo.listAccounts({ q: (request.query.q ?? '').trim(), page, adminEmails: config.adminEmails });
      return { status: 'success', data: { accounts, total, page, pageSize: ADMIN_POLICY.pageSize } } as const;
    },
  );

  fastify.post(
    '/admin/accounts/:id/deactivate',
    {
      schema: accountSchema(
        'Deactivate an account',
        'Every session of the account ends at once, and its event streams on every instance; sign-in answers 403 ACCOUNT_DEACTIVATED and its API tokens are refused. Nothing is deleted. 409 CANNOT_DEACTIVATE_SELF for your own account.',
      ),
    },
    async (request) => {
      if (request.params.id === currentUser(request).id) throw new AppError(409, 'CANNOT_DEACTIVATE_SELF', ADMIN_MESSAGES.cannotDeactivateSelf);
      await changeAccount(request, 'deactivate', async (account, trx, at) => {
        if (!(await repo.setDeactivated(account.id, at, trx))) return false;
        // Sessions end here (and this instance's streams); other instances find their streams'
        // sessions gone within a second (events/session-check.ts). Sign-ins waiting for a code end too.
        await sessions.endSessionsOf(account.id, trx);
        await fastify.twoStepRepository.deleteTokensOf(account.id, trx);
        return true;
      });
      return accountAnswer(request, ADMIN_MESSAGES.accountDeactivated);
    },
  );

  fastify.post(
    '/admin/accounts/:id/reactivate',
    { schema: accountSchema('Reactivate an account', 'The account may sign in again, and its API tokens work again.') },
    async (request) => {
      await changeAccount(request, 'reactivate', (account, trx) => repo.setDeactivated(account.id, null, trx));
      return accountAnswer(request, ADMIN_MESSAGES.accountReactivated);
    },
  );

  fastify.post(
    '/admin/accounts/:id/reset-second-step',
    { schema: accountSchema('Turn two-step sign-in off for an account', 'As `npm run admin -- users:reset-2fa`: the password alone signs in again.') },
    async (request) => {
      const changed = await changeAccount(request, 'reset-second-step', (account, trx) => resetSecondStep(fastify.db, account.id, trx));
      return accountAnswer(request, changed ? ADMIN_MESSAGES.secondStepReset : ADMIN_MESSAGES.secondStepWasOff);
    },
  );

  fastify.post(
    '/admin/invitations',
    {
      schema: {
        hide: true,
        tags: ['admin'],
        summary: 'Invite an address to sign up',
        description:
          'Mails the sign-up link; with REGISTRATION=invite the address may then register. REGISTRATION_DOMAINS still applies: an address outside ' +
          'them answers 409 OUTSIDE_REGISTRATION_DOMAINS, and with REGISTRATION=closed 409 REGISTRATION_CLOSED. 409 ACCOUNT_EXISTS for an address with an account.',
        body: InviteBody,
        response: { 200: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { email } = checkFields({ email: checkEmail(request.body.email) });
      const { registration } = config;
      if (registration.mode === 'closed') throw new AppError(409, 'REGISTRATION_CLOSED', ADMIN_MESSAGES.registrationClosed);
      if (!atAllowedDomain(email, registration.domains)) {
        const domains = registration.domains.join(', ');
        throw new AppError(409, 'OUTSIDE_REGISTRATION_DOMAINS', message('Sign-up on this server is open to addresses at {domains} only (REGISTRATION_DOMAINS).', { domains }));
      }
      const actor = currentUser(request);
      await countAction(actor);
      const at = nowIso();
      await fastify.db.transaction().execute(async (trx) => {
        if ((await fastify.usersRepository.findByEmail(email, trx)) !== undefined) throw new AppError(409, 'ACCOUNT_EXISTS', ADMIN_MESSAGES.accountExists);
        await repo.invite(email, actor.email, at, trx);
        const input = { appOrigin: config.appOrigin, email, inviterName: actor.fullName };
        // Written when it goes out, in the inviting admin's language (the address has no account).
        await fastify.outbox.enqueue(trx, {
          ...instanceInvitationMail(input),
          kind: 'instance-invitation',
          to: email,
          texts: { template: 'instance-invitation', input, language: storedLanguage(actor.language) },
        });
        await repo.record({ actorId: actor.id, actorEmail: actor.email, action: 'invite', subjectEmail: email }, at, trx);
      });
      fastify.outbox.wake();
      return { status: 'success', message: translateFor(request, ADMIN_MESSAGES.invited) } as const;
    },
  );

  fastify.get(
    '/admin/settings',
    { schema: { hide: true, tags: ['admin'], summary: 'The server\'s settings, secrets hidden', response: { 200: serializable(SettingsEnvelope), ...errorResponses } } },
    (request) => Promise.resolve({ status: 'success', data: { settings: describeSettings(config, (words) => translateFor(request, words)) } } as const),
  );

  fastify.get(
    '/admin/audit',
    { schema: { hide: true, tags: ['admin'], summary: 'What admins did, newest first', querystring: AuditQuery, response: { 200: serializable(AuditEnvelope), ...errorResponses } } },
    async (request) => {
      const page = request.query.page ?? 1;
      const { entries, total } = await repo.listActions(page);
      return { status: 'success', data: { entries, total, page, pageSize: ADMIN_POLICY.pageSize } } as const;
    },
  );
  return Promise.resolve();
};

export default admin;
