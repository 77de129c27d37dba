import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import type { ApiToken } from '#shared/schemas/tokens.ts';
import { TOKEN_MESSAGES } from '#shared/schemas/tokens.ts';
import { meAnswer } from '#web/testing/data.ts';
import { json, mockFetch, noContent } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { ApiTokensSection } from './api-tokens-section.tsx';
import { i18n } from '@lingui/core';

const token = (overrides: Partial<ApiToken> = {}): ApiToken => ({
  _id: 't1',
  name: 'Backup script',
  access: 'read',
  createdAt: '2030-01-02T10:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  ...overrides,
});
const listAnswer = (tokens: ApiToken[]) => json(200, { status: 'success', data: { tokens } });
const SECRET = `tw_${'a'.repeat(43)}`;

function scene(tokens: ApiToken[] = []) {
  localStorage.setItem(LOGGED_IN_FLAG, 'true');
  const fetch = mockFetch().on('GET', '/users/me', json(200, meAnswer())).on('GET', '/tokens', listAnswer(tokens));
  const rendered = renderWithProviders(<ApiTokensSection />, { path: '/account' });
  return { fetch, ...rendered };
}

const section = () => screen.getByRole('region', { name: 'API tokens' });

describe('the API tokens section', () => {
  it('lists the tokens with access, dates and "Never" for an unused one', async () => {
    scene([token(), token({ _id: 't2', name: 'Deploy', access: 'write', expiresAt: '2030-04-02T10:00:00.000Z', lastUsedAt: '2030-01-03T10:00:00.000Z' })]);
    const list = await screen.findByRole('list', { name: 'Your tokens' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Backup script');
    expect(items[0]).toHaveTextContent('Read only');
    expect(items[0]).toHaveTextContent(/Expires\s*Never/);
    expect(items[0]).toHaveTextContent(/Last used\s*Never/);
    expect(items[1]).toHaveTextContent('Read and write');
    expect(within(items[1]!).getByRole('button', { name: 'Revoke “Deploy”' })).toBeInTheDocument();
  });

  it('says so when there are none', async () => {
    scene();
    expect(await within(section()).findByText('No tokens yet.')).toBeInTheDocument();
  });

  it('creates a token with the chosen access and expiry, shows its secret once with a Copy button, then hides it', async () => {
    const { fetch, user } = scene();
    const created = token({ _id: 'new', name: 'CI', access: 'write', expiresAt: '2030-04-01T00:00:00.000Z' });
    fetch.on('POST', '/tokens', json(201, { status: 'success', data: { token: created, secret: SECRET } }));
    fetch.on('GET', '/tokens', listAnswer([created]));
    await screen.findByText('No tokens yet.');
    await user.type(screen.getByRole('textbox', { name: /Name/ }), '  CI  ');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Access' }), 'Read and write');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Expires' }), 'In 30 days');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const secret = await screen.findByRole('textbox', { name: 'New API token “CI”' });
    expect(fetch.callsTo('POST', '/tokens')[0]?.body).toEqual({ name: 'CI', access: 'write', expiresInDays: 30 });
    expect(secret).toHaveValue(SECRET);
    expect(secret).toHaveFocus();
    expect(secret).toHaveAccessibleDescription(/you will not see it again/i);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await screen.findByText('Copied to the clipboard.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create token' })).toHaveFocus();
    expect(document.body).not.toHaveTextContent(SECRET);
  });

  it('checks the name before sending, and shows what the server refuses', async () => {
    const { fetch, user } = scene();
    await screen.findByText('No tokens yet.');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveAccessibleDescription(new RegExp(TOKEN_MESSAGES.nameRequired));
    expect(fetch.callsTo('POST', '/tokens')).toHaveLength(0);
    fetch.on('POST', '/tokens', json(409, { status: 'fail', code: 'LIMIT_REACHED', message: i18n._(TOKEN_MESSAGES.tooMany) }));
    fetch.on('GET', '/tokens', listAnswer([]));
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'One too many');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(i18n._(TOKEN_MESSAGES.tooMany));
  });

  it('revokes a token after asking', async () => {
    const { fetch, user } = scene([token()]);
    await user.click(await screen.findByRole('button', { name: 'Revoke “Backup script”' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Revoke “Backup script”?' });
    expect(dialog).toHaveAccessibleDescription(/stops working at once/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetch.callsTo('DELETE', '/tokens/t1')).toHaveLength(0);
    fetch.on('DELETE', '/tokens/t1', noContent());
    fetch.on('GET', '/tokens', listAnswer([]));
    await user.click(screen.getByRole('button', { name: 'Revoke “Backup script”' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => {
      expect(fetch.callsTo('DELETE', '/tokens/t1')).toHaveLength(1);
    });
    expect(await within(section()).findByText('No tokens yet.')).toBeInTheDocument();
  });

  it('offers to try again when the list cannot load', async () => {
    localStorage.setItem(LOGGED_IN_FLAG, 'true');
    const fetch = mockFetch().on('GET', '/users/me', json(200, meAnswer())).on('GET', '/tokens', json(500, { status: 'error', code: 'INTERNAL_ERROR', message: 'Something went wrong.' }));
    const { user } = renderWithProviders(<ApiTokensSection />, { path: '/account' });
    fetch.on('GET', '/tokens', listAnswer([token()]));
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Backup script')).toBeInTheDocument();
  });
});
