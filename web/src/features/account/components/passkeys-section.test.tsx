import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { PASSKEY_MESSAGES } from '#shared/passkeys.ts';
import { defaultPasskeyName } from '#web/lib/passkey-browser.ts';
import { meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { PasskeysSection } from './passkeys-section.tsx';

const laptop = { id: 'p1', name: 'Chrome on Linux', createdAt: '2031-03-01T09:00:00.000Z', lastUsedAt: null, backedUp: false };
const list = (...passkeys: unknown[]) => json(200, { status: 'success', data: { passkeys } });
const section = () => screen.getByRole('region', { name: 'Passkeys' });

function scene() {
  localStorage.setItem(LOGGED_IN_FLAG, 'true');
  return mockFetch().on('GET', '/users/me', json(200, meAnswer()));
}

describe('passkeys on the account page', () => {
  it('lists them with when added and "Never" used, renames one, and shows why the last way in cannot go', async () => {
    const fetch = scene()
      .on('GET', '/account/passkeys', list(laptop))
      .on('PATCH', '/account/passkeys/p1', json(200, { status: 'success', message: PASSKEY_MESSAGES.renamed, data: { passkey: { ...laptop, name: 'Work laptop' } } }))
      .on('GET', '/account/passkeys', list({ ...laptop, name: 'Work laptop' }))
      .on('DELETE', '/account/passkeys/p1', json(409, { status: 'fail', code: 'LAST_SIGN_IN_METHOD', message: PASSKEY_MESSAGES.lastSignInMethod }))
      .on('GET', '/account/passkeys', list({ ...laptop, name: 'Work laptop' }));
    const { user } = renderWithProviders(<PasskeysSection />, { path: '/account' });

    const row = await within(section()).findByRole('listitem');
    expect(row).toHaveTextContent('Chrome on Linux');
    expect(row).toHaveTextContent('Last usedNever');

    await user.click(within(row).getByRole('button', { name: 'Rename “Chrome on Linux”' }));
    await user.clear(within(row).getByLabelText('New name'));
    await user.type(within(row).getByLabelText('New name'), 'Work laptop');
    await user.click(within(row).getByRole('button', { name: 'Save' }));
    expect(await within(section()).findByText('Work laptop')).toBeInTheDocument();
    expect(fetch.callsTo('PATCH', '/account/passkeys/p1')[0]?.body).toEqual({ name: 'Work laptop' });

    await user.click(within(section()).getByRole('button', { name: 'Remove “Work laptop”' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove “Work laptop”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect(await within(dialog).findByText(PASSKEY_MESSAGES.lastSignInMethod)).toBeInTheDocument();
  });

  it('says when there are none', async () => {
    scene().on('GET', '/account/passkeys', list());
    renderWithProviders(<PasskeysSection />, { path: '/account' });
    expect(await within(section()).findByText('No passkeys yet.')).toBeInTheDocument();
  });
});

describe('the default name of a passkey', () => {
  it('is the browser and the system', () => {
    expect(defaultPasskeyName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome on Linux');
    expect(defaultPasskeyName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toBe(
      'Safari on iPhone or iPad',
    );
    expect(defaultPasskeyName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toBe('Edge on Windows');
    expect(defaultPasskeyName('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox on Mac');
    expect(defaultPasskeyName('curl/8.0')).toBe('Passkey');
  });
});
