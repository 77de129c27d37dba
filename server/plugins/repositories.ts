import fp from 'fastify-plugin';
import { createApiTokensRepository, type ApiTokensRepository } from '../repositories/api-tokens-repository.ts';
import { createActivityRepository, type ActivityRepository } from '../repositories/activity-repository.ts';
import { createCalendarRepository, type CalendarRepository } from '../repositories/calendar-repository.ts';
import { createTaskImportRepository, type TaskImportRepository } from '../repositories/task-import-repository.ts';
import { createBoardsRepository, type BoardsRepository } from '../repositories/boards-repository.ts';
import { createChecklistRepository, type ChecklistRepository } from '../repositories/checklist-repository.ts';
import { createColumnsRepository, type ColumnsRepository } from '../repositories/columns-repository.ts';
import { createAttachmentsRepository, type AttachmentsRepository } from '../repositories/attachments-repository.ts';
import { createCommentsRepository, type CommentsRepository } from '../repositories/comments-repository.ts';
import { createIdempotencyRepository, type IdempotencyRepository } from '../repositories/idempotency-repository.ts';
import { createLabelsRepository, type LabelsRepository } from '../repositories/labels-repository.ts';
import { createLoginFailuresRepository, type LoginFailuresRepository } from '../repositories/login-failures-repository.ts';
import { createAccountRepository, type AccountRepository } from '../repositories/account-repository.ts';
import { createMailSettingsRepository, type MailSettingsRepository } from '../repositories/mail-settings-repository.ts';
import { createNotificationsRepository, type NotificationsRepository } from '../repositories/notifications-repository.ts';
import { createOtpCodesRepository, type OtpCodesRepository } from '../repositories/otp-codes-repository.ts';
import { createOutboxRepository, type OutboxRepository } from '../repositories/outbox-repository.ts';
import { createPushSubscriptionsRepository, type PushSubscriptionsRepository } from '../repositories/push-subscriptions-repository.ts';
import { createSessionsRepository, type SessionsRepository } from '../repositories/sessions-repository.ts';
import { createTasksRepository, type TasksRepository } from '../repositories/tasks-repository.ts';
import { createThrottleLocksRepository, type ThrottleLocksRepository } from '../repositories/throttle-locks-repository.ts';
import { createTwoStepRepository, type TwoStepRepository } from '../repositories/two-step-repository.ts';
import { createPasskeysRepository, type PasskeysRepository } from '../repositories/passkeys-repository.ts';
import { createUsersRepository, type UsersRepository } from '../repositories/users-repository.ts';
import { createIdentitiesRepository, type IdentitiesRepository } from '../repositories/identities-repository.ts';
import { createSignInMethodsRepository, type SignInMethodsRepository } from '../repositories/sign-in-methods-repository.ts';
import { createWebhooksRepository, type WebhooksRepository } from '../repositories/webhooks-repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    usersRepository: UsersRepository;
    otpCodesRepository: OtpCodesRepository;
    sessionsRepository: SessionsRepository;
    tasksRepository: TasksRepository;
    loginFailuresRepository: LoginFailuresRepository;
    throttleLocksRepository: ThrottleLocksRepository;
    outboxRepository: OutboxRepository;
    mailSettingsRepository: MailSettingsRepository;
    commentsRepository: CommentsRepository;
    activityRepository: ActivityRepository;
    checklistRepository: ChecklistRepository;
    accountRepository: AccountRepository;
    boardsRepository: BoardsRepository;
    labelsRepository: LabelsRepository;
    webhooksRepository: WebhooksRepository;
    pushSubscriptionsRepository: PushSubscriptionsRepository;
    notificationsRepository: NotificationsRepository;
    calendarRepository: CalendarRepository;
    taskImportRepository: TaskImportRepository;
    apiTokensRepository: ApiTokensRepository;
    idempotencyRepository: IdempotencyRepository;
    columnsRepository: ColumnsRepository;
    attachmentsRepository: AttachmentsRepository;
    twoStepRepository: TwoStepRepository;
    identitiesRepository: IdentitiesRepository;
    signInMethodsRepository: SignInMethodsRepository;
    passkeysRepository: PasskeysRepository;
  }
}

/** All SQL lives in the repositories; each compiles its hot queries once for this database. */
export default fp(
  (fastify, _opts, done) => {
    fastify.decorate('usersRepository', createUsersRepository(fastify.db));
    fastify.decorate('otpCodesRepository', createOtpCodesRepository(fastify.db));
    fastify.decorate('sessionsRepository', createSessionsRepository(fastify.db));
    fastify.decorate('tasksRepository', createTasksRepository(fastify.db, fastify.dbDialect));
    fastify.decorate('loginFailuresRepository', createLoginFailuresRepository(fastify.db));
    fastify.decorate('throttleLocksRepository', createThrottleLocksRepository(fastify.db));
    fastify.decorate('outboxRepository', createOutboxRepository(fastify.db, fastify.dbDialect));
    fastify.decorate('mailSettingsRepository', createMailSettingsRepository(fastify.db));
    fastify.decorate('commentsRepository', createCommentsRepository(fastify.db));
    fastify.decorate('activityRepository', createActivityRepository(fastify.db));
    fastify.decorate('checklistRepository', createChecklistRepository(fastify.db));
    fastify.decorate('accountRepository', createAccountRepository(fastify.db));
    fastify.decorate('boardsRepository', createBoardsRepository(fastify.db, fastify.dbDialect));
    fastify.decorate('labelsRepository', createLabelsRepository(fastify.db));
    fastify.decorate('webhooksRepository', createWebhooksRepository(fastify.db));
    fastify.decorate('pushSubscriptionsRepository', createPushSubscriptionsRepository(fastify.db, fastify.dbDialect));
    fastify.decorate('notificationsRepository', createNotificationsRepository(fastify.db, fastify.dbDialect));
    fastify.decorate('calendarRepository', createCalendarRepository(fastify.db));
    fastify.decorate('taskImportRepository', createTaskImportRepository(fastify.db));
    fastify.decorate('apiTokensRepository', createApiTokensRepository(fastify.db, fastify.dbDialect));
    fastify.decorate('idempotencyRepository', createIdempotencyRepository(fastify.db));
    fastify.decorate('columnsRepository', createColumnsRepository(fastify.db));
    fastify.decorate('attachmentsRepository', createAttachmentsRepository(fastify.db, fastify.dbDialect));
    fastify.decorate('twoStepRepository', createTwoStepRepository(fastify.db));
    fastify.decorate('identitiesRepository', createIdentitiesRepository(fastify.db));
    fastify.decorate('signInMethodsRepository', createSignInMethodsRepository(fastify.db));
    fastify.decorate('passkeysRepository', createPasskeysRepository(fastify.db));
    done();
  },
  { name: 'repositories', dependencies: ['db'] },
);
