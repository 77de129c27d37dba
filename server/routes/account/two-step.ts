import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import {
  ConfirmTwoStepBody,
  DisableTwoStepBody,
  RecoveryCodesEnvelope,
  RenewRecoveryCodesBody,
  TwoStepSetupEnvelope,
  TwoStepStatusEnvelope,
} from '#shared/schemas/two-step.ts';
import { MessageEnvelope } from '#shared/schemas/common.ts';
import type { FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '../../errors.ts';
import { currentUser } from '../../plugins/session.ts';
import { countPasswordAttempt } from '../../services/password-attempts.ts';
import { verifyPassword } from '../../services/passwords.ts';
import {
  checkProof,
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  qrSvgOf,
  secretBoxOf,
  stepOfCode,
  totpOf,
  useProof,
  type SecondStepProof,
} from '../../services/two-step.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { TWO_STEP_MESSAGES } from '#shared/two-step.ts';
import { translateFor } from '../../i18n/request-language.ts';

const invalidCode = () => new AppError(400, 'INVALID_CODE', TWO_STEP_MESSAGES.invalidCode);
const wrongPassword = () => validationFailed([{ field: 'password', message: ACCOUNT_MESSAGES.wrongPassword }]);

/**
 * Two-step sign-in on the account page: set up an authenticator app (a new secret, confirmed by
 * one of its codes), see whether it is on, turn it off, renew the recovery codes. Reachable with
 * a session only (not an API token), also by an account that REQUIRE_2FA holds back until it has
 * a second step.
 */
const twoStep: FastifyPluginAsyncTypebox = (fastify) => {
  const setupOnly = { apiTokens: 'forbidden', secondStep: 'setup' } as const;
  const accountOnly = { apiTokens: 'forbidden' } as const;
  const { clock, twoStepRepository: repo, usersRepository: users } = fastify;

  /**
   * The password and a code (or a recovery code) of the account whose second step is on; both
   * count as a sign-in attempt of the account (the lock-out of 10 failures in 15 minutes). The
   * proof is returned unused, to be used up in the transaction of the change it allows.
   */
  const checkPasswordAndCode = async (request: FastifyRequest, body: { password: string; code?: string | undefined; recoveryCode?: string | undefined }) => {
    const { id } = currentUser(request);
    const user = await users.findById(id);
    if (user === undefined) throw new AppError(401, 'NOT_AUTHENTICATED', SERVER_MESSAGES.notAuthenticated);
    if (!(await repo.isOn(user.id))) throw new AppError(409, 'CONFLICT', ACCOUNT_MESSAGES.twoStepNotOn);
    await countPasswordAttempt(fastify, user.email);
    if (!(await verifyPassword(user.passwordHash, body.password))) throw wrongPassword();
    const proof: SecondStepProof | null = await checkProof(fastify, user.id, { code: body.code, recoveryCode: body.recoveryCode });
    if (proof === null) throw invalidCode();
    return { user, proof };
  };

  fastify.get(
    '/account/two-step',
    {
      onRequest: fastify.authenticate,
      config: setupOnly,
      schema: {
        tags: ['users'],
        summary: 'Whether my two-step sign-in is on, and how many recovery codes are left',
        description: '`required`: the server asks every account for a second step (REQUIRE_2FA); until one is set up, other calls answer 403 SECOND_STEP_REQUIRED.',
        security: sessionSecurity,
        response: { 200: serializable(TwoStepStatusEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { id } = currentUser(request);
      const enabled = await repo.isOn(id);
      const recoveryCodesLeft = enabled ? await repo.recoveryCodesLeft(id) : 0;
      return { status: 'success', data: { twoStep: { enabled, recoveryCodesLeft, required: fastify.config.requireSecondStep } } } as const;
    },
  );

  fastify.post(
    '/account/two-step/setup',
    {
      onRequest: fastify.authenticate,
      config: setupOnly,
      schema: {
        tags: ['users'],
        summary: 'Start setting up an authenticator app: a new secret, its otpauth:// URI and QR code',
        description:
          'The secret is kept (encrypted) but not yet used: sign-in asks for codes once POST /api/account/two-step/confirm ' +
          'took a right one. Starting again replaces an unconfirmed secret. 409 CONFLICT while two-step sign-in is on.',
        security: sessionSecurity,
        response: { 200: serializable(TwoStepSetupEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const secret = newTotpSecret();
      const saved = await repo.savePending(user.id, secretBoxOf(fastify).seal(secret), clock.now().toISOString());
      if (!saved) throw new AppError(409, 'CONFLICT', ACCOUNT_MESSAGES.twoStepAlreadyOn);
      const uri = totpOf(secret, user.email).toString();
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.twoStepSetupStarted), data: { secret, uri, qrSvg: await qrSvgOf(uri) } } as const;
    },
  );

  fastify.post(
    '/account/two-step/confirm',
    {
      onRequest: fastify.authenticate,
      config: setupOnly,
      schema: {
        tags: ['users'],
        summary: 'Turn two-step sign-in on with a code from the app; answers the 10 recovery codes, this once',
        description: '400 INVALID_CODE for a wrong code; 409 CONFLICT when no set-up was started (or it is already on).',
        security: sessionSecurity,
        body: ConfirmTwoStepBody,
        response: { 200: serializable(RecoveryCodesEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const factor = await repo.factorOf(user.id);
      if (factor?.confirmedAt !== null) throw new AppError(409, 'CONFLICT', ACCOUNT_MESSAGES.twoStepNotStarted);
      const secret = secretBoxOf(fastify).open(factor.secretBox);
      const now = clock.now();
      const step = secret === null ? null : stepOfCode(secret, request.body.code, now.getTime());
      if (step === null) throw invalidCode();
      const codes = newRecoveryCodes();
      await fastify.db.transaction().execute(async (trx) => {
        if (!(await repo.confirm(user.id, step, now.toISOString(), trx))) throw new AppError(409, 'CONFLICT', ACCOUNT_MESSAGES.twoStepNotStarted);
        await repo.replaceRecoveryCodes(user.id, codes.map(hashRecoveryCode), trx);
      });
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.twoStepOn), data: { recoveryCodes: codes } } as const;
    },
  );

  fastify.post(
    '/account/two-step/disable',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'Turn two-step sign-in off, with my password and a code or a recovery code',
        description:
          'A wrong password answers 400 VALIDATION_FAILED, a wrong code 400 INVALID_CODE; both count as a failed sign-in of ' +
          'the account (10 in 15 minutes: 429 with Retry-After). 409 CONFLICT when it is not on.',
        security: sessionSecurity,
        body: DisableTwoStepBody,
        response: { 200: serializable(MessageEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { user, proof } = await checkPasswordAndCode(request, request.body);
      await fastify.db.transaction().execute(async (trx) => {
        if (!(await useProof(fastify, user.id, proof, trx))) throw invalidCode();
        await repo.removeAll(user.id, trx);
        await fastify.loginFailuresRepository.clear(user.email, trx);
      });
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.twoStepOff) } as const;
    },
  );

  fastify.post(
    '/account/two-step/recovery-codes',
    {
      onRequest: fastify.authenticate,
      config: accountOnly,
      schema: {
        tags: ['users'],
        summary: 'New recovery codes (the old ones stop working), with my password and a code; answered this once',
        description: 'The same checks and limits as turning two-step sign-in off.',
        security: sessionSecurity,
        body: RenewRecoveryCodesBody,
        response: { 200: serializable(RecoveryCodesEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { user, proof } = await checkPasswordAndCode(request, request.body);
      const codes = newRecoveryCodes();
      await fastify.db.transaction().execute(async (trx) => {
        if (!(await useProof(fastify, user.id, proof, trx))) throw invalidCode();
        await repo.replaceRecoveryCodes(user.id, codes.map(hashRecoveryCode), trx);
        await fastify.loginFailuresRepository.clear(user.email, trx);
      });
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.recoveryCodesRenewed), data: { recoveryCodes: codes } } as const;
    },
  );

  return Promise.resolve();
};

export default twoStep;
