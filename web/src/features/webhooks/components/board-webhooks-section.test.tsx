import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import type { Delivery, Webhook } from '#shared/schemas/webhooks.ts';
import { meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { PENDING_DELIVERIES_REFRESH_MS } from '../api/webhooks.ts';
import { BoardWebhooksSection } from './board-webhooks-section.tsx';

const hook: Webhook = {
  _id: 'h1',
  url: 'https://hooks.example.com/taskwise',
  events: ['task.created'],
  active: true,
  failingSince: null,
  createdAt: '2030-01-02T10:00:00.000Z',
};
const delivery = (overrides: Partial<Delivery> = {}): Delivery => ({
  _id: 'd1',
  type: 'task.created',
  status: 'pending',
  attempts: 0,
  responseStatus: null,
  at: '2030-01-02T10:05:00.000Z',
  ...overrides,
});
const deliveriesAnswer = (deliveries: Delivery[]) => json(200, { status: 'success', data: { deliveries } });
const DELIVERIES = '/boards/b1/webhooks/h1/deliveries';

afterEach(() => {
  vi.useRealTimers();
});

describe('a webhook’s delivery log', () => {
  it('asks again every few seconds while a delivery is pending, and stops once none is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    localStorage.setItem(LOGGED_IN_FLAG, 'true');
    const fetch = mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .on('GET', '/boards/b1/webhooks', json(200, { status: 'success', data: { webhooks: [hook] } }))
      .on('GET', DELIVERIES, deliveriesAnswer([delivery()]))
      .on('GET', DELIVERIES, deliveriesAnswer([delivery({ status: 'delivered', attempts: 1, responseStatus: 200 })]));
    const { user } = renderWithProviders(<BoardWebhooksSection boardId="b1" />, { path: '/boards/b1/settings' });

    await user.click(await screen.findByRole('button', { name: 'Recent deliveries' }));
    const log = await screen.findByRole('table');
    expect(await within(log).findByText('Pending')).toBeInTheDocument();
    expect(fetch.callsTo('GET', DELIVERIES)).toHaveLength(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(PENDING_DELIVERIES_REFRESH_MS);
    });
    expect(await within(log).findByText('Delivered')).toBeInTheDocument();
    expect(within(log).getByText('200')).toBeInTheDocument();
    expect(fetch.callsTo('GET', DELIVERIES)).toHaveLength(2);

    // Nothing pending: no more asking (an unexpected request would fail the mocked fetch).
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3 * PENDING_DELIVERIES_REFRESH_MS);
    });
    expect(fetch.callsTo('GET', DELIVERIES)).toHaveLength(2);
  });
});
