import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { normalizeEmail } from '#shared/email.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { MessageEnvelope } from '#shared/schemas/common.ts';
import { LoginEnvelope, SecondStepBody } from '#shared/schemas/two-step.ts';
import { LoginBody, RegisterBody, UserEnvelope } from '#shared/schemas/users.ts';
import { checkEmail, checkFullName, checkOtp, checkPassword } from '#shared/validation.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../db/ids.ts';
import { AppError, rateLimited } from '../../errors.ts';
import { accountDeactivated, currentUser } from '../../plugins/session.ts';
import { activateInvitations } from '../../services/board-events.ts';
import { countPasswordAttempt } from '../../services/password-attempts.ts';
import { hashPassword, verifyPassword, warmDummyHash } from '../../services/passwords.ts';
import { checkProof, hasSecondStep, hashSecondStepToken, useProof } from '../../services/two-step.ts';
import { checkMayRegister, dropInstanceInvitation } from '../../services/registration.ts';
import { checkFields } from '../field-checks.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { TWO_STEP_POLICY, TWO_STEP_MESSAGES } from '#shared/two-step.ts';
import { translateFor, translateForAccount } from '../../i18n/request-language.ts';
import { newAccountLanguage } from '../../i18n/account-language.ts';

const invalidCode = () => new AppError(400, 'INVALID_CODE', SERVER_MESSAGES.invalidCode);
const invalidSecondStep = () => new AppError(400, 'INVALID_CODE', TWO_STEP_MESSAGES.invalidCode);

const users: FastifyPluginAsyncTypebox = async (fastify) => {
  const { clock } = fastify;
  const { usersRepository, otpCodesRepository, loginFailuresRepository, twoStepRepository, otpService, sessions, rateLimits } = fastify;
  // Computed before the first sign-in, so an unknown e-mail costs the same from the start.
  await warmDummyHash();

  fastify.post(
    '/users/register',
    {
      schema: {
        tags: ['users'],
        summary: 'Create an account with the mailed code',
        description:
          'A wrong, expired, used or dead code (5 wrong tries) answers 400 INVALID_CODE with one generic message. After 20 wrong ' +
          'codes for the address in 24 hours, any code answers 400 INVALID_CODE saying so, until the oldest of them is a day old.',
        body: RegisterBody,
        response: { 201: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { email, fullName, password, otp } = checkFields({
        email: checkEmail(body.email),
        fullName: checkFullName(body.fullName),
        password: checkPassword(body.password, body.email),
        otp: checkOtp(body.otp),
      });
      // The policy may have changed since the code was mailed.
      await checkMayRegister(fastify.config.registration, fastify, email);
      const checked = await otpService.check(email, otp);
      if (!checked.ok) throw invalidCode();
      // Hash only after the code proved right: a stream of guesses costs no argon2 work.
      const passwordHash = await hashPassword(password);
      // The account speaks the browser's language from the start (changed on the account page).
      const language = newAccountLanguage(request.headers['accept-language']);
      const now = clock.now().toISOString();
      try {
        await fastify.events.transaction(async (trx) => {
          // The code is used up in the same transaction that creates the account.
          const consumed = await otpCodesRepository.consume(checked.codeId, now, trx);
          if (!consumed || (await usersRepository.findByEmail(email, trx)) !== undefined) throw invalidCode();
          const id = newId();
          await usersRepository.insert({ id, email, fullName, passwordHash, createdAt: now, updatedAt: now, ...language }, trx);
          // The code proved the address: the boards it was invited to become the account's.
          await activateInvitations(fastify.boardsRepository, trx, { id, email }, now);
          await dropInstanceInvitation(trx, email);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw invalidCode();
        throw error;
      }
      return reply.code(201).send({ status: 'success', message: translateFor(request, SERVER_MESSAGES.registered) });
    },
  );

  fastify.post(
    '/users/login',
    {
      schema: {
        tags: ['users'],
        summary: 'Sign in; sets the session cookie, or asks for the second step',
        description:
          '401 INVALID_CREDENTIALS "Incorrect email or password." for an unknown e-mail or a wrong password alike. ' +
          'After 10 failures for one e-mail in 15 minutes, or 100 attempts from one IP, 429 with Retry-After. ' +
          'An account with two-step sign-in gets no cookie: `data.secondStep` holds a token for ' +
          'POST /api/users/login/second-step (5 minutes); the password attempt stays counted among the failures until a right code.',
        body: LoginBody,
        response: { 200: serializable(LoginEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const ipWait = await rateLimits.loginPerIp.hit(request.ip);
      if (ipWait > 0) throw rateLimited(ipWait);

      const email = normalizeEmail(request.body.email);
      await countPasswordAttempt(fastify, email);

      const user = await usersRepository.findByEmail(email);
      // An unknown e-mail is verified against a dummy hash: the same work as a wrong password.
      const valid = await verifyPassword(user?.passwordHash ?? null, request.body.password);
      if (!valid || user === undefined) {
        throw new AppError(401, 'INVALID_CREDENTIALS', SERVER_MESSAGES.incorrectCredentials);
      }
      // Only after the right password: the refusal tells nobody else that the account exists.
      if (user.deactivatedAt !== null) throw accountDeactivated();
      if (await hasSecondStep(fastify, user.id)) {
        // No session yet, and the failures stay: only a right code clears them, so a known
        // password buys no more code guesses than the lock-out allows.
        const token = randomBytes(32).toString('base64url');
        const now = clock.now();
        const expiresAt = new Date(now.getTime() + TWO_STEP_POLICY.tokenTtlMs).toISOString();
        await twoStepRepository.insertToken({ tokenHash: hashSecondStepToken(token), userId: user.id, expiresAt }, now.toISOString());
        return { status: 'success', message: translateFor(request, TWO_STEP_MESSAGES.secondStepNeeded), data: { secondStep: { token, expiresAt } } } as const;
      }
      // Success clears the address's failures, in the transaction that starts the session.
      await sessions.start(request, reply, user.id, (trx) => loginFailuresRepository.clear(email, trx));
      return {
        status: 'success',
        message: translateForAccount(request, user.language, SERVER_MESSAGES.loginSuccess),
        data: { user: { fullName: user.fullName, email: user.email } },
      } as const;
    },
  );

  fastify.post(
    '/users/login/second-step',
    {
      schema: {
        tags: ['users'],
        summary: 'Finish a sign-in with the authenticator code or a recovery code; sets the session cookie',
        description:
          'Send the token from POST /api/users/login with `code` (the app\'s 6 digits) or `recoveryCode`. Answers like a sign-in. ' +
          'A wrong, used or late code, an expired or unknown token, or a token that had 5 wrong codes: 400 INVALID_CODE (sign in again). ' +
          'Each code counts among the account\'s sign-in failures (10 in 15 minutes: 429 with Retry-After), and among the IP\'s attempts.',
        body: SecondStepBody,
        response: { 200: serializable(UserEnvelope), ...errorResponses },
      },
    },
    async (request, reply) => {
      const ipWait = await rateLimits.loginPerIp.hit(request.ip);
      if (ipWait > 0) throw rateLimited(ipWait);

      const { token, code, recoveryCode } = request.body;
      const tokenHash = hashSecondStepToken(token);
      const pending = await twoStepRepository.findToken(tokenHash);
      const nowIso = clock.now().toISOString();
      if (pending === undefined || pending.expiresAt <= nowIso || pending.failures >= TWO_STEP_POLICY.maxFailures) throw invalidSecondStep();
      await countPasswordAttempt(fastify, pending.email);
      const proof = await checkProof(fastify, pending.userId, { code, recoveryCode });
      if (proof === null) {
        await twoStepRepository.countFailure(tokenHash);
        throw invalidSecondStep();
      }
      // The token and the code are used up, and the failures cleared, in the session's transaction:
      // of two requests with the same code, one signs in.
      await sessions.start(request, reply, pending.userId, async (trx) => {
        if (!(await twoStepRepository.consumeToken(tokenHash, nowIso, TWO_STEP_POLICY.maxFailures, trx))) throw invalidSecondStep();
        if (!(await useProof(fastify, pending.userId, proof, trx))) throw invalidSecondStep();
        await loginFailuresRepository.clear(pending.email, trx);
      });
      return {
        status: 'success',
        message: translateForAccount(request, pending.language, SERVER_MESSAGES.loginSuccess),
        data: { user: { fullName: pending.fullName, email: pending.email } },
      } as const;
    },
  );

  fastify.get(
    '/users/me',
    {
      onRequest: fastify.authenticate,
      config: { secondStep: 'setup' },
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        description: 'The user of the session cookie: full name and e-mail. 401 NOT_AUTHENTICATED without a live session.',
        security: sessionSecurity,
        response: { 200: serializable(UserEnvelope), ...errorResponses },
      },
    },
    (request) => {
      const user = currentUser(request);
      return Promise.resolve({ status: 'success', data: { user: { fullName: user.fullName, email: user.email } } } as const);
    },
  );

  const logoutSchema = {
    tags: ['users'],
    summary: 'Sign out: deletes the session and clears the cookie (200 even without one)',
    description: 'Ends the request\'s session, if any, and clears the cookie. POST is the one to use; GET stays for the original task-board client, which signs out with GET.',
    response: { 200: serializable(MessageEnvelope), ...errorResponses },
  };
  const logout = async (request: Parameters<typeof sessions.end>[0], reply: Parameters<typeof sessions.end>[1]) => {
    await sessions.end(request, reply);
    return { status: 'success', message: translateFor(request, SERVER_MESSAGES.loggedOut) } as const;
  };
  // GET because the original task-board client (it sends the whole task) signs out so; POST for every other client.
  fastify.get('/users/logout', { schema: logoutSchema }, logout);
  fastify.post('/users/logout', { schema: logoutSchema }, logout);
};

export default users;
