import type { Generated } from 'kysely';
import type { ActivityType } from '#shared/schemas/comments.ts';
import type { NotificationChannel, NotificationType } from '#shared/schemas/notifications.ts';
import type { LabelColor, Priority, RepeatUnit, TaskStatus } from '#shared/constants.ts';

/**
 * Table types as the app sees them (CamelCasePlugin maps them to snake_case SQL names).
 *
 * Runtime values are identical on SQLite and PostgreSQL because Kysely converts nothing:
 * - ids are random text (16 CSPRNG bytes, base64url, see ids.ts);
 * - every timestamp is ISO 8601 UTC text from `Date.prototype.toISOString()` — fixed width, so
 *   text order is time order and `<`/`>` comparisons and ORDER BY work on both databases;
 * - counters are INTEGER (int4 on PostgreSQL, which pg returns as a JS number).
 */
export interface UsersTable {
  id: string;
  email: string;
  fullName: string;
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
  /** When `users:promote` made the account an instance admin; null: not promoted. */
  adminSince: Generated<string | null>;
  /** When an admin deactivated the account; null: active. */
  deactivatedAt: Generated<string | null>;
  /** The last sign-in that started a session. */
  lastSignInAt: Generated<string | null>;
  /** The account's language, a tag of shared/languages.ts. */
  language: Generated<string>;
  /** `monday` | `sunday` | `saturday`. */
  weekStart: Generated<string>;
  /** `h12` | `h23`. */
  hourCycle: Generated<string>;
}

export interface OtpCodesTable {
  id: string;
  email: string;
  purpose: string;
  codeHash: string;
  expiresAt: string;
  attempts: number;
  consumedAt: string | null;
  createdAt: string;
}

export interface SessionsTable {
  tokenHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  lastSeenAt: string;
}

export interface TasksTable {
  id: string;
  workTitle: string;
  taskTitle: string;
  assigneeEmail: string;
  createdBy: string;
  deadline: string | null;
  priority: Priority;
  status: TaskStatus;
  /** Plain text, `""` when none. */
  description: string;
  createdAt: string;
  updatedAt: string;
  /** 1 on create, +1 on every successful change. */
  version: number;
  /** The board the task is on (a personal board's id is its owner's user id). */
  boardId: string;
  /** The checklist's ticked and total items (0 by default), kept on the row by every checklist change. */
  checklistDone: Generated<number>;
  checklistTotal: Generated<number>;
  /** A repeating task's interval; both null (the default) when it does not repeat. */
  repeatEvery: number | null;
  repeatUnit: RepeatUnit | null;
  /** The task's column: one of its board's (migration 0021). */
  columnId: string;
  /** The task's order key in its column, ascending byte-wise (top first), unique per column. */
  position: string;
  /** When the work starts (ISO 8601 UTC), null when unset; never after `deadline` when both are set (migration 0023). */
  startAt: string | null;
  /** Kept by the attachment writes (services/attachment-writes.ts). */
  attachmentCount: Generated<number>;
  /** The cover image: one of the task's attachments with a thumbnail, and its size; all null or none. */
  coverId: string | null;
  coverWidth: number | null;
  coverHeight: number | null;
  /** The ids of the task's labels, comma-separated in byte order, null when none: kept by triggers on task_labels (migration 0031), never written by the app. */
  labelIds: Generated<string | null>;
}

/** A board's label; `nameKey` is the name lower-cased (unique per board). */
export interface LabelsTable {
  id: string;
  boardId: string;
  name: string;
  nameKey: string;
  color: LabelColor;
  createdAt: string;
  updatedAt: string;
}

export interface TaskLabelsTable {
  taskId: string;
  labelId: string;
}

/** One item of a task's checklist; `position` is 0-based and dense within the task. `done` is 0/1. */
export interface ChecklistItemsTable {
  id: string;
  taskId: string;
  position: number;
  text: string;
  done: number;
  createdAt: string;
  updatedAt: string;
}

export type BoardRole = 'admin' | 'member' | 'viewer';

/** `personal` is 1 for an account's own board (its id is the owner's user id), 0 for a shared one. */
export interface BoardsTable {
  id: string;
  name: string;
  /** Plain text, `""` when none. */
  description: string;
  personal: number;
  createdAt: string;
  updatedAt: string;
}

/** A column of a board (migration 0021): its tasks' status is its category. */
export interface BoardColumnsTable {
  id: string;
  boardId: string;
  name: string;
  category: TaskStatus;
  /** null, or 1–999: a warning when the column holds more, never a refusal. */
  wipLimit: number | null;
  /** Order key among the board's columns, ascending byte-wise. */
  position: string;
}

/** One address on a board: `userId` null = invited (no account yet), set = active. */
export interface BoardMembersTable {
  boardId: string;
  /** Lower-cased. */
  email: string;
  userId: string | null;
  role: BoardRole;
  addedAt: string;
  addedByName: string;
  addedByEmail: string;
}

export interface EventsTable {
  /** bigint on PostgreSQL (pg hands it back as text); read through the events repository. */
  id: Generated<string | number>;
  type: string;
  /**
   * What the event is about, by `type`: the task (task and comment events), the board (board
   * events), the notification (`notification.created`), the reader's user id (`notification.read`).
   */
  subjectId: string;
  /**
   * JSON array of lower-cased e-mails that receive the event: a board event's addressees; a
   * task or comment event's assignee (its board's members receive it through `boardId`).
   */
  audience: string;
  /** JSON text of the event's `data`. */
  payload: string;
  createdAt: string;
  /** The board a task, comment or board event is about; null for other events. */
  boardId: Generated<string | null>;
  /** A task event that moved the task: the board it was on before (null: not moved). */
  fromBoardId: Generated<string | null>;
  /** A task event that changed the assignee: JSON array of the e-mails before (null: unchanged). */
  fromAudience: Generated<string | null>;
}

export interface RateLimitHitsTable {
  id: string;
  key: string;
  hitAt: string;
}

export interface EventStreamLeasesTable {
  id: string;
  userId: string;
  instanceId: string;
  expiresAt: string;
  /** The session the stream was opened with (its `sessions.tokenHash`): the stream ends with it. */
  sessionTokenHash: string;
}

export interface LoginFailuresTable {
  id: string;
  email: string;
  failedAt: string;
}

export interface ThrottleLocksTable {
  key: string;
  touchedAt: string;
}

/** Rows carry the author's name and e-mail so they outlive the account (authorId becomes null). */
export interface CommentsTable {
  /** Insertion order (integer identity); never in the API. */
  seq: Generated<number>;
  id: string;
  taskId: string;
  authorId: string | null;
  authorName: string;
  authorEmail: string;
  body: string;
  createdAt: string;
  updatedAt: string;
  /** JSON text: the addresses mentioned who could see the task when the comment was written. */
  mentions: Generated<string>;
}

export interface TaskActivityTable {
  seq: Generated<number>;
  id: string;
  taskId: string;
  type: ActivityType;
  actorId: string | null;
  actorName: string;
  actorEmail: string;
  at: string;
  /** JSON text `{field: {from, to}}` for `updated`, else null. */
  changes: string | null;
}

/** One mail, push or webhook delivery to make (server/outbox/outbox.ts). `headers` is a JSON object of extra headers. */
export interface OutboxTable {
  id: string;
  kind: string;
  toEmail: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  headers: string;
  dedupeKey: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  runAt: string;
  lockedBy: string | null;
  lockedUntil: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** The user whose change wrote the mail (counted against their hourly cap); null when nobody caused it to someone else. */
  causedBy: string | null;
  /** Kind `push`: the subscription it goes to (the payload, JSON `{title, body, url}`, is `textBody`); else null. */
  pushSubscriptionId: Generated<string | null>;
  /** Kind `webhook`: the webhook it is a delivery to (the body is `textBody`); else null. */
  webhookId: Generated<string | null>;
  /** Kind `webhook`: the receiver's last HTTP status (null: none yet, or no answer). */
  responseStatus: Generated<number | null>;
  /**
   * A mail: what it is made of (JSON, `MailTexts` of server/mail/templates.ts), from which the
   * sender writes it in its reader's language; null for rows written before (sent as written).
   */
  texts: Generated<string | null>;
}

/** A person's API token (migration 0015); only the secret's SHA-256 is stored. */
export interface ApiTokensTable {
  id: string;
  userId: string;
  name: string;
  access: 'read' | 'write';
  secretHash: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** A board's webhook (migration 0015). `events`: JSON text of the event types; `active` 0/1. */
export interface WebhooksTable {
  id: string;
  boardId: string;
  url: string;
  events: string;
  secret: string;
  active: number;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A person's secret calendar feed (migration 0015). */
export interface CalendarFeedsTable {
  userId: string;
  secret: string;
  createdAt: string;
}

/** The remembered answer to a create sent with an Idempotency-Key (migration 0016). */
export interface IdempotencyKeysTable {
  userId: string;
  key: string;
  /** The call it answered, e.g. `POST /api/tasks` or `POST /api/tasks/<id>/comments`. */
  scope: string;
  status: number;
  /** The JSON answer as text, exactly as it was sent. */
  body: string;
  createdAt: string;
}

/** One notification of one account (migration 0014). */
export interface NotificationsTable {
  id: string;
  userId: string;
  type: NotificationType;
  text: string;
  taskId: string | null;
  taskTitle: string | null;
  boardId: string | null;
  boardName: string | null;
  byName: string | null;
  byEmail: string | null;
  createdAt: string;
  readAt: string | null;
}

/** A row turns one notification type off on one channel for one account (no row: on). */
export interface NotificationMutesTable {
  userId: string;
  type: NotificationType;
  channel: NotificationChannel;
}

/** A browser's push subscription (RFC 8030 endpoint, RFC 8291 keys, base64url). */
export interface PushSubscriptionsTable {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  createdAt: string;
}

/**
 * How many tasks a board has of a status, as the sum of its rows' `n` (migration 0019): kept by
 * triggers on `tasks`, read by the counts of "all my tasks" (task-list-queries.ts).
 */
export interface BoardTaskCountsTable {
  boardId: string;
  status: TaskStatus;
  shard: number;
  n: number;
}

/** Which optional mails an address wants; flags are 0/1 (the same integer on both databases). */
export interface MailSettingsTable {
  email: string;
  notifyAssigned: number;
  notifyReminders: number;
  notifyBoards: Generated<number>;
  notifyMentions: Generated<number>;
  updatedAt: string;
}

/** A file on a task (migration 0024). */
export interface AttachmentsTable {
  id: string;
  taskId: string;
  name: string;
  size: number;
  /** The media type read from the bytes. */
  type: string;
  width: number | null;
  height: number | null;
  storageKey: string;
  thumbnailKey: string | null;
  uploaderId: string | null;
  uploaderName: string;
  uploaderEmail: string;
  createdAt: string;
}

/** A stored file to delete once `dueAt` has passed ('' : at once). */
export interface FileSweepsTable {
  storageKey: string;
  dueAt: string;
}

/** An account's authenticator app (migration 0025); on once `confirmedAt` is set. */
export interface TotpFactorsTable {
  userId: string;
  /** The secret, AES-256-GCM encrypted (server/services/two-step-secrets.ts). */
  secretBox: string;
  confirmedAt: string | null;
  /** The RFC 6238 time step of the last accepted code. */
  lastStep: number | null;
  createdAt: string;
}

/** One-time recovery codes, by their SHA-256. */
export interface RecoveryCodesTable {
  id: string;
  userId: string;
  codeHash: string;
  usedAt: string | null;
}

/** A password sign-in waiting for its second step, by the SHA-256 of its token. */
export interface SecondStepTokensTable {
  tokenHash: string;
  userId: string;
  expiresAt: string;
  failures: Generated<number>;
}

/** An account's link to an OpenID Connect provider's account (its subject). */
export interface UserIdentitiesTable {
  providerId: string;
  subject: string;
  userId: string;
  /** The address the provider gave when the link was made. */
  email: string;
  createdAt: string;
  lastUsedAt: string | null;
}
/** A passkey (WebAuthn discoverable credential) an account registered (migration 0027). */
export interface PasskeysTable {
  id: string;
  userId: string;
  /** base64url, as the browser sends it at sign-in. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter the authenticator reported last (0 for those that keep none). */
  counter: Generated<number>;
  /** JSON array of the transports the browser reported. */
  transports: Generated<string>;
  /** 1 for a multi-device (syncable) credential. */
  multiDevice: Generated<number>;
  /** 1 when the authenticator said the credential is backed up. */
  backedUp: Generated<number>;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}
/** A sign-in or link under way at an OpenID Connect provider, by the SHA-256 of its `state`. */
export interface OidcFlowsTable {
  stateHash: string;
  /** The SHA-256 of the short-lived cookie that binds the flow to the browser that started it. */
  browserHash: string;
  providerId: string;
  purpose: 'sign-in' | 'link';
  /** The account a link adds to; null for a sign-in. */
  userId: string | null;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  expiresAt: string;
  consumedAt: string | null;
  createdAt: string;
}
/** A WebAuthn challenge handed out and not yet used; deleted by the statement that accepts it. */
export interface WebauthnChallengesTable {
  challenge: string;
  /** `register` or `sign-in`. */
  purpose: string;
  /** The account a registration challenge was made for; null for sign-in. */
  userId: string | null;
  expiresAt: string;
}

export interface DB {
  users: UsersTable;
  otpCodes: OtpCodesTable;
  sessions: SessionsTable;
  tasks: TasksTable;
  loginFailures: LoginFailuresTable;
  throttleLocks: ThrottleLocksTable;
  events: EventsTable;
  eventStreamLeases: EventStreamLeasesTable;
  rateLimitHits: RateLimitHitsTable;
  comments: CommentsTable;
  taskActivity: TaskActivityTable;
  outbox: OutboxTable;
  mailSettings: MailSettingsTable;
  boards: BoardsTable;
  boardMembers: BoardMembersTable;
  boardColumns: BoardColumnsTable;
  labels: LabelsTable;
  taskLabels: TaskLabelsTable;
  checklistItems: ChecklistItemsTable;
  notifications: NotificationsTable;
  notificationMutes: NotificationMutesTable;
  pushSubscriptions: PushSubscriptionsTable;
  apiTokens: ApiTokensTable;
  webhooks: WebhooksTable;
  calendarFeeds: CalendarFeedsTable;
  idempotencyKeys: IdempotencyKeysTable;
  boardTaskCounts: BoardTaskCountsTable;
  attachments: AttachmentsTable;
  fileSweeps: FileSweepsTable;
  totpFactors: TotpFactorsTable;
  recoveryCodes: RecoveryCodesTable;
  secondStepTokens: SecondStepTokensTable;
  userIdentities: UserIdentitiesTable;
  oidcFlows: OidcFlowsTable;
  instanceInvitations: InstanceInvitationsTable;
  adminActions: AdminActionsTable;
  passkeys: PasskeysTable;
  webauthnChallenges: WebauthnChallengesTable;
}

/** An address an instance admin invited to register; goes when it registers. */
export interface InstanceInvitationsTable {
  /** Lower-cased. */
  email: string;
  invitedByEmail: string;
  createdAt: string;
}

/** The audit log of instance admins' actions (addresses, not foreign keys: it outlives accounts). */
export interface AdminActionsTable {
  id: string;
  at: string;
  /** null: the admin command (shell access). */
  actorId: string | null;
  actorEmail: string;
  action: string;
  subjectEmail: string | null;
  detail: Generated<string>;
}
