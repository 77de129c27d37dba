import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '#shared/messages.ts';
import { json, mockFetch, networkError } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';

const otpSent = () => json(201, { status: 'success', message: SERVER_MESSAGES.otpSent });
const registration = (mode: 'open' | 'invite' | 'closed', message: string | null, domains: string[] = []) =>
  json(200, { status: 'success', data: { registration: { mode, domains, message } } });
/** The sign-up page asks who may register; here anyone may. */
const signUpFetch = () => mockFetch().always('GET', '/registration', registration('open', null));
/** The calls the form made (the page's own question about registration left out). */
const formCalls = (api: ReturnType<typeof mockFetch>) => api.calls.filter((call) => call.path !== '/api/registration');

async function fillDetails(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Full name'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('E-mail'), 'Ada@Example.com');
  await user.click(screen.getByRole('button', { name: 'Send OTP' }));
}

async function reachStepTwo() {
  const api = signUpFetch().on('POST', '/otps', otpSent());
  const rendered = renderApp('/sign-up');
  await fillDetails(rendered.user);
  await screen.findByLabelText('One-time code');
  return { api, ...rendered };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('sign-up step 1', () => {
  it('requires a full name and a valid e-mail before sending anything', async () => {
    const api = signUpFetch();
    const { user } = renderApp('/sign-up');
    await user.click(await screen.findByRole('button', { name: 'Send OTP' }));
    expect(screen.getByText('Full name is required.')).toBeInTheDocument();
    expect(screen.getByText('Enter your e-mail address.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('E-mail'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(formCalls(api)).toHaveLength(0);
  });

  it('requests a code and moves to step 2 with e-mail and name read-only', async () => {
    const { api } = await reachStepTwo();
    expect(formCalls(api)[0]?.body).toEqual({ email: 'ada@example.com' });
    expect(screen.getByRole('status')).toHaveTextContent(SERVER_MESSAGES.otpSent);
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Full name')).toHaveAttribute('readonly');
    const otp = screen.getByLabelText('One-time code');
    expect(otp).toHaveAttribute('autocomplete', 'one-time-code');
    expect(otp).toHaveAttribute('inputmode', 'numeric');
    expect(otp).toHaveFocus();
  });

  it('shows "Error: " and the server message when the code request fails', async () => {
    signUpFetch().on('POST', '/otps', json(400, { status: 'fail', code: 'VALIDATION_FAILED', message: 'Enter a valid e-mail address.' }));
    const { user } = renderApp('/sign-up');
    await fillDetails(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Error: Enter a valid e-mail address\.$/);
    expect(screen.getByRole('button', { name: 'Send OTP' })).toBeInTheDocument();
  });

  it('shows "Failed to send OTP. Please try again." on a network failure', async () => {
    signUpFetch().on('POST', '/otps', networkError());
    const { user } = renderApp('/sign-up');
    await fillDetails(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(CLIENT_MESSAGES.otpNetworkFailure);
  });

  it('honours Retry-After on 429 with a visible countdown', async () => {
    signUpFetch().on(
      'POST',
      '/otps',
      json(429, { status: 'fail', code: 'RATE_LIMITED', message: SERVER_MESSAGES.tooManyRequests }, { 'Retry-After': '90' }),
    );
    const { user } = renderApp('/sign-up');
    await fillDetails(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error: ${SERVER_MESSAGES.tooManyRequests}`);
    expect(screen.getByRole('button', { name: 'Send OTP' })).toBeDisabled();
    expect(screen.getByText('You can request a new code in 1:30.')).toBeInTheDocument();
  });
});

describe('sign-up step 2', () => {
  it('says "Password does not match!" and sends nothing when the passwords differ', async () => {
    const { api, user } = await reachStepTwo();
    await user.type(screen.getByLabelText('One-time code'), '123456');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Confirm password'), 'correct horse battery!');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Password does not match!$/);
    expect(api.callsTo('POST', '/users/register')).toHaveLength(0);
    expect(formCalls(api)).toHaveLength(1);
  });

  it('checks the code format and password length before sending', async () => {
    const { api, user } = await reachStepTwo();
    await user.type(screen.getByLabelText('One-time code'), '12a3');
    expect(screen.getByLabelText('One-time code')).toHaveValue('123');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('The code is 6 digits.')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/users/register')).toHaveLength(0);
  });

  it('registers and goes to /login with "Account created. Please sign in."', async () => {
    const { api, user } = await reachStepTwo();
    api.on('POST', '/users/register', json(201, { status: 'success', message: SERVER_MESSAGES.registered }));
    await user.type(screen.getByLabelText('One-time code'), '123456');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Confirm password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
    expect(screen.getByText(CLIENT_MESSAGES.accountCreated)).toHaveAttribute('role', 'status');
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@example.com');
    expect(api.callsTo('POST', '/users/register')[0]?.body).toEqual({
      email: 'ada@example.com',
      fullName: 'Ada Lovelace',
      otp: '123456',
      password: 'correct horse battery',
    });
  });

  it('shows the server message when registration fails and keeps the input', async () => {
    const { api, user } = await reachStepTwo();
    api.on('POST', '/users/register', json(400, { status: 'fail', code: 'INVALID_CODE', message: SERVER_MESSAGES.invalidCode }));
    await user.type(screen.getByLabelText('One-time code'), '654321');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Confirm password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.invalidCode);
    expect(screen.getByLabelText('One-time code')).toHaveValue('654321');
    expect(currentPath()).toBe('/sign-up');
  });

  it('keeps "Resend code" disabled with a countdown for the cooldown, then resends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, user } = await reachStepTwo();
    const resend = screen.getByRole('button', { name: 'Resend code' });
    expect(resend).toBeDisabled();
    expect(screen.getByText('Available in 1:00')).toBeInTheDocument();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(screen.getByText(/Available in 0:(29|30)/)).toBeInTheDocument();
    expect(resend).toBeDisabled();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(31_000);
    });
    expect(resend).toBeEnabled();
    expect(screen.queryByText(/Available in/)).not.toBeInTheDocument();

    api.on('POST', '/otps', otpSent());
    await user.click(resend);
    await waitFor(() => {
      expect(api.callsTo('POST', '/otps')).toHaveLength(2);
    });
    expect(await screen.findByText('Available in 1:00')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend code' })).toBeDisabled();
  });

  it('starts the cooldown reported by a 429 on resend', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, user } = await reachStepTwo();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(61_000);
    });
    api.on(
      'POST',
      '/otps',
      json(429, { status: 'fail', code: 'RATE_LIMITED', message: SERVER_MESSAGES.tooManyRequests }, { 'Retry-After': '300' }),
    );
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error: ${SERVER_MESSAGES.tooManyRequests}`);
    expect(screen.getByText('Available in 5:00')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend code' })).toBeDisabled();
  });

  it('goes back to step 1 with "Change e-mail", keeping the details', async () => {
    const { user } = await reachStepTwo();
    await user.click(screen.getByRole('button', { name: 'Change e-mail' }));
    const email = await screen.findByLabelText('E-mail');
    expect(email).not.toHaveAttribute('readonly');
    expect(email).toHaveValue('ada@example.com');
    expect(email).toHaveFocus();
    expect(screen.getByLabelText('Full name')).toHaveValue('Ada Lovelace');
  });
});

describe('who may register, said before anyone types', () => {
  it('by invitation: the page says so above the form, which stays for those invited', async () => {
    mockFetch().always('GET', '/registration', registration('invite', 'Sign-up on this server is by invitation.'));
    renderApp('/sign-up');
    expect(await screen.findByText('Sign-up on this server is by invitation.')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toBeInTheDocument();
  });

  it('closed: the page says so and shows no form', async () => {
    mockFetch().always('GET', '/registration', registration('closed', 'Sign-up on this server is closed.'));
    renderApp('/sign-up');
    expect(await screen.findByRole('status')).toHaveTextContent('Sign-up on this server is closed. An administrator of this server can make you an account.');
    expect(screen.queryByLabelText('E-mail')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('a refused first step shows the server\'s reason', async () => {
    mockFetch()
      .always('GET', '/registration', registration('open', 'Sign-up on this server is open to addresses at example.org only.', ['example.org']))
      .on('POST', '/otps', json(403, { status: 'fail', code: 'REGISTRATION_CLOSED', message: 'Sign-up on this server is open to addresses at example.org only.' }));
    const { user } = renderApp('/sign-up');
    await fillDetails(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Sign-up on this server is open to addresses at example.org only.');
  });
});
