import { expect } from 'vitest';
import type { Delivery, Webhook } from '#shared/schemas/webhooks.ts';
import type { Response, TestApp } from './helpers.ts';

export const webhookOf = (res: Response) => (res.json as unknown as { data: { webhook: Webhook } }).data.webhook;
export const webhooksOf = (res: Response) => (res.json as unknown as { data: { webhooks: Webhook[] } }).data.webhooks;
export const deliveriesOf = (res: Response) => (res.json as unknown as { data: { deliveries: Delivery[] } }).data.deliveries;

/** The webhook calls as a signed-in user makes them. */
export function webhooksApi(t: TestApp) {
  const base = (boardId: string) => `/api/boards/${boardId}/webhooks`;
  return {
    list: (cookie: string, boardId: string) => t.request('GET', base(boardId), { cookie }),
    create: (cookie: string, boardId: string, body: unknown) => t.request('POST', base(boardId), { cookie, body }),
    update: (cookie: string, boardId: string, hookId: string, body: unknown) => t.request('PATCH', `${base(boardId)}/${hookId}`, { cookie, body }),
    remove: (cookie: string, boardId: string, hookId: string) => t.request('DELETE', `${base(boardId)}/${hookId}`, { cookie }),
    deliveries: (cookie: string, boardId: string, hookId: string) => t.request('GET', `${base(boardId)}/${hookId}/deliveries`, { cookie }),
    redeliver: (cookie: string, boardId: string, hookId: string, deliveryId: string) =>
      t.request('POST', `${base(boardId)}/${hookId}/deliveries/${deliveryId}/redeliver`, { cookie }),
  };
}

/** Adds a webhook as `cookie`'s admin; its JSON and its secret. */
export async function addWebhook(t: TestApp, cookie: string, boardId: string, url: string, events: string[]) {
  const res = await webhooksApi(t).create(cookie, boardId, { url, events });
  expect(res.status, res.body).toBe(201);
  const { webhook, secret } = (res.json as unknown as { data: { webhook: Webhook; secret: string } }).data;
  return { webhook, secret };
}

/** The outbox rows of one webhook, oldest first. */
export const deliveryRows = (t: TestApp, webhookId: string) =>
  t.app.db.selectFrom('outbox').selectAll().where('webhookId', '=', webhookId).orderBy('createdAt').orderBy('id').execute();
