import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { TwoStepSection } from './two-step-section.tsx';
import { TWO_STEP_MESSAGES } from '#shared/two-step.ts';

const statusAnswer = (enabled: boolean, recoveryCodesLeft = 0, required = false) =>
  json(200, { status: 'success', data: { twoStep: { enabled, recoveryCodesLeft, required } } });
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h1v1H0z"/></svg>';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jkmn-pq${String(i).padStart(2, '2')}`);

function scene() {
  localStorage.setItem(LOGGED_IN_FLAG, 'true');
  const fetch = mockFetch().on('GET', '/users/me', json(200, meAnswer()));
  return fetch;
}
const section = () => screen.getByRole('region', { name: 'Two-step sign-in' });

describe('two-step sign-in on the account page', () => {
  it('sets up: the QR code as an image and the key as text, a code turns it on, the recovery codes are shown once', async () => {
    const fetch = scene()
      .on('GET', '/account/two-step', statusAnswer(false))
      .on('POST', '/account/two-step/setup', json(200, { status: 'success', message: ACCOUNT_MESSAGES.twoStepSetupStarted, data: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x', qrSvg: SVG } }))
      .on('POST', '/account/two-step/confirm', json(400, { status: 'fail', code: 'INVALID_CODE', message: TWO_STEP_MESSAGES.invalidCode }))
      .on('POST', '/account/two-step/confirm', json(200, { status: 'success', message: ACCOUNT_MESSAGES.twoStepOn, data: { recoveryCodes: CODES } }))
      .on('GET', '/account/two-step', statusAnswer(true, 10));
    const { user } = renderWithProviders(<TwoStepSection />, { path: '/account' });

    await user.click(await screen.findByRole('button', { name: 'Set up two-step sign-in' }));
    const qr = await within(section()).findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`);
    expect(within(section()).getByLabelText('Secret key')).toHaveTextContent('JBSWY3DPEHPK3PXP');

    await user.type(screen.getByLabelText('Code from the app'), '12345');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(screen.getByText('Enter the 6-digit code your app shows.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Code from the app'));
    await user.type(screen.getByLabelText('Code from the app'), '000000');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(TWO_STEP_MESSAGES.invalidCode)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Code from the app'));
    await user.type(screen.getByLabelText('Code from the app'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
    expect(fetch.callsTo('POST', '/account/two-step/confirm').at(-1)?.body).toEqual({ code: '123456' });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));
    expect(await screen.findByText('Copied to the clipboard.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(await within(section()).findByText(/Recovery codes left: 10/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
  });

  it('turns off with the password and a code, or a recovery code', async () => {
    const fetch = scene()
      .on('GET', '/account/two-step', statusAnswer(true, 7))
      .on('POST', '/account/two-step/disable', json(200, { status: 'success', message: ACCOUNT_MESSAGES.twoStepOff }))
      .on('GET', '/account/two-step', statusAnswer(false));
    const { user } = renderWithProviders(<TwoStepSection />, { path: '/account' });
    await user.type(await screen.findByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Code from the app, or a recovery code'), 'abcd-efgh-jkmn-pqrs');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Set up two-step sign-in' })).toBeInTheDocument();
    expect(fetch.callsTo('POST', '/account/two-step/disable')[0]?.body).toEqual({ password: 'correct horse', recoveryCode: 'abcd-efgh-jkmn-pqrs' });
  });

  it('makes new recovery codes with the password and a code from the app, shows them once, and counts them', async () => {
    const fetch = scene()
      .on('GET', '/account/two-step', statusAnswer(true, 2))
      .on('POST', '/account/two-step/recovery-codes', json(400, { status: 'fail', code: 'INVALID_CODE', message: TWO_STEP_MESSAGES.invalidCode }))
      .on('POST', '/account/two-step/recovery-codes', json(200, { status: 'success', message: 'New recovery codes.', data: { recoveryCodes: CODES } }))
      .on('GET', '/account/two-step', statusAnswer(true, 10));
    const { user } = renderWithProviders(<TwoStepSection />, { path: '/account' });
    await user.click(await screen.findByRole('button', { name: 'New recovery codes…' }));
    const form = screen.getByRole('form', { name: 'Make new recovery codes' });
    await user.click(within(form).getByRole('button', { name: 'Make new codes' }));
    expect(within(form).getByText('Enter your password.')).toBeInTheDocument();
    expect(within(form).getByText('Enter the 6-digit code your app shows.')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Password'), 'correct horse');
    await user.type(within(form).getByLabelText('Code from the app'), '111 111');
    await user.click(within(form).getByRole('button', { name: 'Make new codes' }));
    expect(await within(form).findByText(TWO_STEP_MESSAGES.invalidCode)).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Make new codes' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
    expect(fetch.callsTo('POST', '/account/two-step/recovery-codes').map((c) => c.body)).toEqual([
      { password: 'correct horse', code: '111111' },
      { password: 'correct horse', code: '111111' },
    ]);
    await user.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(await within(section()).findByText(/Recovery codes left: 10/)).toBeInTheDocument();
  });
});
