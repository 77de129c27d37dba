import { Type, type Static } from 'typebox';
import { literalUnion } from './common.ts';

/** The event types a webhook may ask for: the task, comment and attachment events of the live stream. */
export const WEBHOOK_EVENTS = [
  'task.created',
  'task.updated',
  'task.deleted',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'attachment.created',
  'attachment.deleted',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** How many webhooks a board may have, and how many deliveries its log shows. */
export const WEBHOOK_LIMITS = { perBoard: 10, urlMax: 2000, deliveriesShown: 50 } as const;

export const WebhookEventField = literalUnion(WEBHOOK_EVENTS);

/** A board's webhook as the API shows it (its secret only once, when it is created). */
export const WebhookSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  url: Type.String(),
  events: Type.Array(WebhookEventField),
  active: Type.Boolean({ description: 'False: paused (by an admin, or after 24 hours of failed deliveries); no deliveries are written.' }),
  failingSince: Type.Union([Type.String(), Type.Null()], { description: 'When its deliveries started failing without a success since; null: healthy.' }),
  createdAt: Type.String(),
});
export type Webhook = Static<typeof WebhookSchema>;

const UrlInput = Type.String({ minLength: 1, maxLength: WEBHOOK_LIMITS.urlMax, description: 'An http: or https: URL the server may send to.' });
const EventsInput = Type.Array(WebhookEventField, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true });

export const CreateWebhookBody = Type.Object({ url: UrlInput, events: EventsInput });
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object({
  url: Type.Optional(UrlInput),
  events: Type.Optional(EventsInput),
  active: Type.Optional(Type.Boolean({ description: 'True resumes a paused webhook (its failure clock starts again).' })),
});
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const WebhookParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: "The board's id." }),
  hookId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type WebhookParams = Static<typeof WebhookParams>;

export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: "The board's id." }),
  hookId: Type.String({ minLength: 1, maxLength: 64 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 128 }),
});
export type DeliveryParams = Static<typeof DeliveryParams>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One delivery of one event to one webhook. */
export const DeliverySchema = Type.Object({
  _id: Type.String(),
  type: WebhookEventField,
  status: literalUnion(DELIVERY_STATUSES),
  attempts: Type.Integer({ description: 'Sending attempts so far.' }),
  responseStatus: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's last HTTP status; null: none yet, or no answer." }),
  at: Type.String({ description: 'When the delivery was written (the change, or the redelivery).' }),
});
export type Delivery = Static<typeof DeliverySchema>;

export const WebhookEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
  data: Type.Object({ webhook: WebhookSchema }),
});
export type WebhookEnvelope = Static<typeof WebhookEnvelope>;

export const CreatedWebhookEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({
    webhook: WebhookSchema,
    secret: Type.String({ description: 'The signing secret (`whsec_` and base64), shown this once.' }),
  }),
});
export type CreatedWebhookEnvelope = Static<typeof CreatedWebhookEnvelope>;

export const WebhookListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ webhooks: Type.Array(WebhookSchema, { description: 'Oldest first.' }) }),
});
export type WebhookListEnvelope = Static<typeof WebhookListEnvelope>;

export const DeliveryListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ deliveries: Type.Array(DeliverySchema, { description: `The newest ${WEBHOOK_LIMITS.deliveriesShown}, newest first.` }) }),
});
export type DeliveryListEnvelope = Static<typeof DeliveryListEnvelope>;
