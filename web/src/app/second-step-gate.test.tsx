import { screen } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { SecondStepGate } from './second-step-gate.tsx';
import { TWO_STEP_MESSAGES } from '#shared/two-step.ts';

function Page() {
  const tasks = useQuery({ queryKey: ['gate-test'], queryFn: () => apiRequest<{ status: string }>('/tasks'), retry: false });
  return <p>{tasks.data ? 'The tasks' : 'Loading'}</p>;
}

describe('REQUIRE_2FA in the web app', () => {
  it('shows the set-up instead of the pages once a call answers 403 SECOND_STEP_REQUIRED, and the pages again once it is on', async () => {
    localStorage.setItem(LOGGED_IN_FLAG, 'true');
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .on('GET', '/tasks', json(403, { status: 'fail', code: 'SECOND_STEP_REQUIRED', message: TWO_STEP_MESSAGES.setupRequired }))
      .on('GET', '/account/two-step', json(200, { status: 'success', data: { twoStep: { enabled: false, recoveryCodesLeft: 0, required: true } } }))
      .on('POST', '/account/two-step/setup', json(200, { status: 'success', message: 'ok', data: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>' } }))
      .on('POST', '/account/two-step/confirm', json(200, { status: 'success', message: 'ok', data: { recoveryCodes: ['aaaa-bbbb-cccc-dddd'] } }))
      .on('GET', '/account/two-step', json(200, { status: 'success', data: { twoStep: { enabled: true, recoveryCodesLeft: 1, required: true } } }))
      .on('GET', '/tasks', json(200, { status: 'success' }));
    const { user } = renderWithProviders(
      <SecondStepGate>
        <Page />
      </SecondStepGate>,
    );
    expect(await screen.findByRole('heading', { name: 'Set up two-step sign-in' })).toBeInTheDocument();
    expect(await screen.findByText(/This server requires two-step sign-in/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Set up two-step sign-in' }));
    await user.type(await screen.findByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await user.click(await screen.findByRole('button', { name: 'I saved them' }));
    expect(await screen.findByText('The tasks')).toBeInTheDocument();
  });
});
