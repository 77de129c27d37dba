import { Type, type Static } from 'typebox';
import { literalUnion } from './common.ts';

/**
 * What a notification is about. Never one for a person's own action.
 * - `assigned`: someone else assigned you a task.
 * - `mentioned`: someone mentioned you in a comment on a task you can see.
 * - `commented`: someone else commented on a task you created or are assigned.
 * - `completed`: someone else completed a task you created.
 * - `due_soon` / `overdue`: a task you created or are assigned is due within 24 h / past its deadline.
 * - `board_added`: someone added you to a board.
 */
export const NOTIFICATION_TYPES = ['assigned', 'mentioned', 'commented', 'completed', 'due_soon', 'overdue', 'board_added'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Where a notification can reach someone besides mail: the inbox in the app, and push to their devices. */
export const NOTIFICATION_CHANNELS = ['app', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_POLICY = {
  /** Notifications older than this are deleted. */
  keepDays: 90,
  /** Kept per account: past it the oldest go at the hourly housekeeping sweep. */
  perUser: 1000,
  /** `limit` of GET /api/notifications: default and maximum. */
  pageDefault: 20,
  pageMax: 100,
  /** Push subscriptions per account (`POST /api/push/subscriptions` past it: 409 LIMIT_REACHED). */
  subscriptionsPerUser: 10,
  /** `POST /api/notifications/read {ids}`: at most this many ids. */
  readIdsMax: 100,
} as const;

export const NotificationTypeField = literalUnion(NOTIFICATION_TYPES);

const Person = Type.Object({ fullName: Type.String(), email: Type.String() });

export const NotificationSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  type: NotificationTypeField,
  text: Type.String({ description: 'What happened, in a sentence, as the inbox and the pushed notification show it.' }),
  task: Type.Union([Type.Object({ _id: Type.String(), taskTitle: Type.String() }), Type.Null()], {
    description: 'The task it is about (its title when the notification was made), or null.',
  }),
  board: Type.Union([Type.Object({ _id: Type.String(), name: Type.String() }), Type.Null()], { description: 'The board it is about, or null.' }),
  by: Type.Union([Person, Type.Null()], { description: 'Who caused it (null for reminders).' }),
  at: Type.String({ format: 'date-time' }),
  readAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type Notification = Static<typeof NotificationSchema>;

export const NotificationListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: NOTIFICATION_POLICY.pageMax, default: NOTIFICATION_POLICY.pageDefault })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: '`nextCursor` of the previous page.' })),
  unread: Type.Optional(Type.Boolean({ description: 'Only unread ones.' })),
});
export type NotificationListQuery = Static<typeof NotificationListQuery>;

export const NotificationListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({
    notifications: Type.Array(NotificationSchema, { description: 'Newest first.' }),
    unreadCount: Type.Integer({ minimum: 0 }),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  }),
});
export type NotificationListEnvelope = Static<typeof NotificationListEnvelope>;

/**
 * `{ids}` or `{all: true}`, exactly one. One object with at most one property rather than a union
 * of two: the server's Ajv removes properties a branch does not allow while it tries that branch
 * (`removeAdditional`), so `{all: true}` would have lost `all` to the `{ids}` branch.
 */
export const MarkReadBody = Type.Object(
  {
    ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: NOTIFICATION_POLICY.readIdsMax })),
    all: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1 },
);
export type MarkReadBody = { ids: string[] } | { all: true };

export const UnreadCountEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ unreadCount: Type.Integer({ minimum: 0 }) }),
});
export type UnreadCountEnvelope = Static<typeof UnreadCountEnvelope>;

/** Live event `notification.created`, to the notified person's streams. */
export interface NotificationCreatedData {
  notification: Notification;
  unreadCount: number;
}
/** Live event `notification.read`, to the person's streams (their other tabs and devices follow). */
export type NotificationReadData = ({ ids: string[] } | { all: true }) & { unreadCount: number };

/** Per type, whether it is wanted on a channel. Every type is on unless turned off. */
const PerType = Type.Object(Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, Type.Boolean()])) as Record<NotificationType, ReturnType<typeof Type.Boolean>>);
export type PerType = Record<NotificationType, boolean>;

export const NotificationSettings = Type.Object({
  app: PerType,
  push: PerType,
});
export interface NotificationSettings { app: PerType; push: PerType }

export const NotificationSettingsEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Object({ settings: NotificationSettings }),
});
export interface NotificationSettingsEnvelope { status: 'success'; message?: string; data: { settings: NotificationSettings } }

/** Only the switches that change: `{push: {commented: false}}`. */
export const UpdateNotificationSettingsBody = Type.Object(
  {
    app: Type.Optional(Type.Partial(PerType, { additionalProperties: false })),
    push: Type.Optional(Type.Partial(PerType, { additionalProperties: false })),
  },
  { minProperties: 1, additionalProperties: false },
);
export interface UpdateNotificationSettingsBody { app?: Partial<PerType>; push?: Partial<PerType> }

/** The pushed message (RFC 8291 encrypted), as the service worker reads it. */
export interface PushPayload {
  title: string;
  body: string;
  /** Where a click leads: a path of the app (`/tasks/:id`, `/boards/:id`, `/notifications`). */
  url: string;
  /** The notification's id (the service worker tags it, so the same one never shows twice). */
  id: string;
}

export const PublicKeyEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ publicKey: Type.String({ description: 'The VAPID public key (RFC 8292), base64url of the uncompressed P-256 point.' }) }),
});
export type PublicKeyEnvelope = Static<typeof PublicKeyEnvelope>;

export const PushSubscriptionBody = Type.Object({
  endpoint: Type.String({ minLength: 1, maxLength: 2000, description: 'The push service URL (http or https).' }),
  keys: Type.Object({
    p256dh: Type.String({ minLength: 1, maxLength: 200, description: 'base64url of the browser\u2019s P-256 public key (65 bytes).' }),
    auth: Type.String({ minLength: 1, maxLength: 100, description: 'base64url of the 16-byte auth secret.' }),
  }),
  expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;

export const DeletePushSubscriptionBody = Type.Object({ endpoint: Type.String({ minLength: 1, maxLength: 2000 }) });
export type DeletePushSubscriptionBody = Static<typeof DeletePushSubscriptionBody>;
