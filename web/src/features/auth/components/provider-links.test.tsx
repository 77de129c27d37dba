import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';

const providers = (error: string | null = null) => json(200, { status: 'success', data: { providers: [{ id: 'corp', name: 'Corp ID' }], error } });

describe('sign-in providers on the sign-in and sign-up pages', () => {
  it('links "Sign in with <name>" to the server, with the page to come back to', async () => {
    mockFetch().on('GET', '/auth/providers', providers());
    renderApp('/login?next=%2Fboards');
    const link = await screen.findByRole('link', { name: 'Sign in with Corp ID' });
    expect(link).toHaveAttribute('href', '/api/auth/oidc/corp/start?returnTo=%2Fboards');
  });

  it('shows the server\'s text for the error a provider sign-in came back with', async () => {
    const api = mockFetch().on('GET', '/auth/providers', providers('That sign-in took too long and expired. Please start again.'));
    renderApp('/login?error=oidc_expired');
    expect(await screen.findByRole('alert')).toHaveTextContent('That sign-in took too long and expired.');
    expect(api.callsTo('GET', '/auth/providers')[0]?.query.get('error')).toBe('oidc_expired');
  });

  it('offers the same "Sign in with <name>" on the sign-up page (a first sign-in makes the account)', async () => {
    mockFetch().on('GET', '/auth/providers', providers()).always('GET', '/registration', json(200, { status: 'success', data: { registration: { mode: 'open', domains: [], message: null } } }));
    renderApp('/sign-up');
    expect(await screen.findByRole('link', { name: 'Sign in with Corp ID' })).toHaveAttribute('href', '/api/auth/oidc/corp/start');
  });
});
