import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import {
  ChangePasswordBody,
  DeleteAccountBody,
  PasswordResetBody,
  PasswordResetConfirmBody,
  ProfileEnvelope,
  UpdateProfileBody,
} from '#shared/schemas/account.ts';
import { MessageEnvelope } from '#shared/schemas/common.ts';
import type { Notification } from '#shared/schemas/notifications.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { checkEmail, checkFullName, checkOtp, checkPassword } from '#shared/validation.ts';
import { AppError, validationFailed } from '../../errors.ts';
import { accountDeactivated, currentUser } from '../../plugins/session.ts';
import { countPasswordAttempt } from '../../services/password-attempts.ts';
import { hashPassword, verifyPassword } from '../../services/passwords.ts';
import { deletedAccountAddress } from '../../repositories/users-repository.ts';
import { checkFields } from '../field-checks.ts';
import { jsonDocument, pagesOf } from './export-document.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { requestLanguage, translateFor } from '../../i18n/request-language.ts';

/** Rows the export reads at a time. */
const EXPORT_PAGE = 500;
const invalidCode = () => new AppError(400, 'INVALID_CODE', SERVER_MESSAGES.invalidCode);
const wrongPassword = (field: string) => validationFailed([{ field, message: ACCOUNT_MESSAGES.wrongPassword }]);

/**
 * What a person can do with their own account: reset a forgotten password with a mailed code,
 * change their name and password, sign out everywhere, download their data, delete the account.
 */
const account: FastifyPluginAsyncTypebox = (fastify) => {
  // Managing the account (name, password, sessions, data, deletion) needs a session: an API token
  // is refused (403 TOKEN_NOT_ALLOWED; plugins/session.ts).
  const accountOnly = { apiTokens: 'forbidden' } as const;
  const { clock, usersRepository: users, otpCodesRepository: codes, otpService, sessions } = fastify;

  /** The signed-in user's row, with the password hash (the session only carries id, email, name). */
  const me = async (request: Parameters<typeof currentUser>[0]) => {
    const row = await users.findById(currentUser(request).id);
    if (row === undefined) throw new AppError(401, 'NOT_AUTHENTICATED', SERVER_MESSAGES.notAuthenticated);
    return row;
  };

  fastify.post(
    '/password-resets',
    {
      schema: {
        tags: ['users'],
        summary: 'Mail a password reset code',
        description:
          'Always 201 for a valid address: an account gets a 6-digit code, an unknown address a mail saying there is ' +
          'no account. The same limits as sign-up codes (per address and per IP): 429 with Retry-After.',
        body: PasswordResetBody,
        response: { 201: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email } = checkFields({ email: checkEmail(request.body.email) });
      await otpService.request(email, request.ip, 'reset', requestLanguage(request));
      return reply.code(201).send({ status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.resetRequested) });
    },
  );

  fastify.post(
    '/password-resets/confirm',
    {
      schema: {
        tags: ['users'],
        summary: 'Set a new password with the mailed code; every session of the account ends',
        description:
          'A wrong, expired, used or dead code answers 400 INVALID_CODE; after 20 wrong codes for the address in 24 hours, ' +
          'any code does (saying so) until the oldest of them is a day old.',
        body: PasswordResetConfirmBody,
        response: { 200: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const body = request.body;
      const { email, otp, password } = checkFields({
        email: checkEmail(body.email),
        otp: checkOtp(body.otp),
        password: checkPassword(body.password, body.email),
      });
      const checked = await otpService.check(email, otp, 'reset');
      if (!checked.ok) throw invalidCode();
      const passwordHash = await hashPassword(password);
      const now = clock.now().toISOString();
      await fastify.db.transaction().execute(async (trx) => {
        const user = await users.findByEmail(email, trx);
        if (user === undefined || !(await codes.consume(checked.codeId, now, trx))) throw invalidCode();
        // A reset is a way back in: not for a deactivated account (whose tokens must stay, too).
        if (user.deactivatedAt !== null) throw accountDeactivated();
        await users.update(user.id, { passwordHash, updatedAt: now }, trx);
        // A sign-in that proved the old password and waits for its code ends too.
        await fastify.twoStepRepository.deleteTokensOf(user.id, trx);
        await sessions.endAllOf(user.id, { trx });
      });
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.passwordReset) } as const;
    },
  );

  fastify.patch(
    '/users/me',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Change my name',
        description: 'Sets the signed-in user\'s full name (trimmed, 1 to 100 characters). 400 VALIDATION_FAILED for a blank or longer name.',
        security: sessionSecurity,
        body: UpdateProfileBody,
        response: { 200: serializable(ProfileEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { fullName } = checkFields({ fullName: checkFullName(request.body.fullName) });
      await users.update(user.id, { fullName, updatedAt: clock.now().toISOString() });
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.profileSaved), data: { user: { fullName, email: user.email } } } as const;
    },
  );

  fastify.post(
    '/users/me/password',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Change my password; my other sessions end, this one stays',
        description:
          'A wrong current password answers 400 and changes nothing; it counts as a failed sign-in of the account ' +
          '(after 10 in 15 minutes, 429 with Retry-After, here and at sign-in).',
        security: sessionSecurity,
        body: ChangePasswordBody,
        response: { 200: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const user = await me(request);
      const { newPassword } = checkFields({ newPassword: checkPassword(request.body.newPassword, user.email) });
      await countPasswordAttempt(fastify, user.email);
      if (!(await verifyPassword(user.passwordHash, request.body.currentPassword))) throw wrongPassword('currentPassword');
      const passwordHash = await hashPassword(newPassword);
      await fastify.db.transaction().execute(async (trx) => {
        await fastify.loginFailuresRepository.clear(user.email, trx);
        await users.update(user.id, { passwordHash, updatedAt: clock.now().toISOString() }, trx);
        await fastify.twoStepRepository.deleteTokensOf(user.id, trx);
        await sessions.endAllOf(user.id, { keep: request, trx });
      });
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.passwordChanged) } as const;
    },
  );

  fastify.post(
    '/users/logout-all',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Sign out on every device, this one included',
        description: 'Deletes every session of the signed-in user and clears this cookie.',
        security: sessionSecurity,
        response: { 200: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      await sessions.endAllOf(currentUser(request).id);
      sessions.clearCookie(reply);
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.loggedOutEverywhere) } as const;
    },
  );

  fastify.get(
    '/users/me/export',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Download my data as JSON: my account, the boards I am on, every task I can see, every comment I wrote, my notifications',
        description:
          'A JSON attachment (`Content-Disposition: attachment`) with everything stored about me, streamed as it is read ' +
          '(tasks and notifications newest first, comments oldest first): a cut connection leaves a document that does not parse.',
        security: sessionSecurity,
        response: { 200: Type.Unknown({ description: 'A JSON file (Content-Disposition: attachment).' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await me(request);
      const settings = await fastify.mailSettingsRepository.get(user.email);
      const boards = (await fastify.boardsRepository.membershipsOf(user.id)).map((b) => ({ _id: b.id, name: b.name, personal: b.personal, role: b.role }));
      const viewer = { userId: user.id, email: user.email };
      const now = clock.now().toISOString();
      // Keyset pages (a task or comment written meanwhile is in the export or not, never twice).
      const tasks = pagesOf(EXPORT_PAGE, (after: Task | undefined) =>
        fastify.tasksRepository.list(viewer, {
          view: 'all',
          sort: 'newest',
          limit: EXPORT_PAGE,
          after: after === undefined ? undefined : { createdAt: after.createdAt, id: after._id },
        }),
      );
      async function* comments() {
        const pages = pagesOf(EXPORT_PAGE, (after: { seq: number } | undefined) => fastify.accountRepository.commentsBy(user.id, after?.seq, EXPORT_PAGE));
        for await (const page of pages) yield page.map((row) => row.comment);
      }
      const notifications = pagesOf(EXPORT_PAGE, (after: Notification | undefined) =>
        fastify.notificationsRepository.list(user.id, { limit: EXPORT_PAGE, unread: false, after: after === undefined ? undefined : { createdAt: after.at, id: after._id } }),
      );
      const document = jsonDocument(
        { exportedAt: now, user: { fullName: user.fullName, email: user.email, createdAt: user.createdAt }, settings, boards },
        { tasks, comments: comments(), notifications },
      );
      void reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="taskwise-export-${now.slice(0, 10)}.json"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(document));
    },
  );

  fastify.delete(
    '/users/me',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Delete my account (confirmed with my password): 204',
        description:
          'Sessions, codes, my notifications and push subscriptions go (mails the address turned off stay off). My memberships go: a shared board where I was the only ' +
          'active admin gets its longest-standing active member as admin; a shared board with no other active member is deleted ' +
          'with its tasks; my personal board loses the tasks assigned to me and is deleted unless tasks on it are assigned to ' +
          'someone else. Tasks and comments that stay keep my name. The address may register again. A wrong ' +
          'password answers 400 and counts as a failed sign-in of the account (after 10 in 15 minutes, 429 with Retry-After).',
        security: sessionSecurity,
        body: DeleteAccountBody,
        response: { 204: Type.Null({ description: 'Deleted; no body.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await me(request);
      await countPasswordAttempt(fastify, user.email);
      if (!(await verifyPassword(user.passwordHash, request.body.password))) throw wrongPassword('password');
      const now = clock.now().toISOString();
      await fastify.events.transaction(async (trx) => {
        await fastify.boards.leaveAll(trx, { userId: user.id, email: user.email, fullName: user.fullName });
        // The address's mail settings stay: they belong to whoever reads that mailbox, and an
        // opt-out must not turn back on because an account went (nor when it signs up again).
        await fastify.accountRepository.deleteAddressRecords(user.email, trx);
        await fastify.notificationsRepository.deleteOfAccount(user.id, trx);
        await fastify.idempotencyRepository.deleteOfUser(user.id, trx);
        await fastify.twoStepRepository.removeAll(user.id, trx);
        await fastify.identitiesRepository.removeAllOf(user.id, trx);
        await sessions.endAllOf(user.id, { trx });
        // The row stays as a nameplate for what remains under the person's name (tasks they
        // created for others, their comments): its address is released for a new sign-up and
        // nobody can sign in to it (no password hash verifies against "!").
        await users.update(
          user.id,
          { email: deletedAccountAddress(randomBytes(9).toString('base64url')), passwordHash: '!', updatedAt: now },
          trx,
        );
      });
      sessions.clearCookie(reply);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

export default account;
