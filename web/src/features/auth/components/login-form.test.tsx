import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { ADA } from '#web/testing/data.ts';
import { json, mockFetch, networkError } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';
import { TWO_STEP_MESSAGES } from '#shared/two-step.ts';

describe('login form', () => {
  it('has an e-mail field of type email and a password field, both required, and a sign-up link', async () => {
    mockFetch();
    renderApp('/login');
    const email = await screen.findByLabelText('E-mail');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/sign-up');
  });

  it('sends nothing and explains when fields are missing or the e-mail is malformed', async () => {
    const api = mockFetch();
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter your e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('E-mail')).toHaveFocus();

    await user.type(screen.getByLabelText('E-mail'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('shows the server message on failure and keeps the input', async () => {
    const api = mockFetch().on(
      'POST',
      '/users/login',
      json(401, { status: 'fail', code: 'INVALID_CREDENTIALS', message: 'Incorrect email or password.' }),
    );
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('E-mail'), ' Ada@Example.com ');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password.');
    expect(api.calls[0]?.body).toEqual({ email: 'ada@example.com', password: 'wrong password' });
    expect(screen.getByLabelText('E-mail')).toHaveValue('Ada@Example.com');
    expect(localStorage.getItem(LOGGED_IN_FLAG)).toBeNull();
    // A wrong password is not an expired session.
    expect(screen.queryByText(/session has expired/)).not.toBeInTheDocument();
  });

  it('shows a busy "Signing in…" button while waiting', async () => {
    let answer: (r: Response) => void = () => undefined;
    mockFetch().on('POST', '/users/login', () => new Promise<Response>((resolve) => (answer = resolve)));
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const busy = await screen.findByRole('button', { name: 'Signing in…' });
    // Busy, not disabled: it keeps keyboard focus, and refuses a second click.
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    answer(json(200, { status: 'success', message: 'ok', data: { user: ADA } }));
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
  });

  it('says so when the server cannot be reached', async () => {
    mockFetch().on('POST', '/users/login', networkError());
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reach the server.');
  });

  describe('with two-step sign-in', () => {
    const challenge = json(200, { status: 'success', message: TWO_STEP_MESSAGES.secondStepNeeded, data: { secondStep: { token: 'tok', expiresAt: '2031-03-10T09:05:00.000Z' } } });
    const signInWithPassword = async (user: ReturnType<typeof renderApp>['user']) => {
      await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
      await user.type(screen.getByLabelText('Password'), 'correct horse battery');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
    };

    it('asks for the app\'s code after the password, and signs in with it', async () => {
      const api = mockFetch()
        .on('POST', '/users/login', challenge)
        .on('POST', '/users/login/second-step', json(200, { status: 'success', message: 'ok', data: { user: ADA } }));
      const { user } = renderApp('/login');
      await signInWithPassword(user);
      const code = await screen.findByLabelText('Code from your authenticator app');
      expect(code).toHaveAttribute('autocomplete', 'one-time-code');
      expect(localStorage.getItem(LOGGED_IN_FLAG)).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
      await user.type(code, '123 456');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
      expect(api.callsTo('POST', '/users/login/second-step').at(-1)?.body).toEqual({ token: 'tok', code: '123456' });
    });

    it('switches to a recovery code, and shows the server\'s message for a wrong one', async () => {
      const api = mockFetch()
        .on('POST', '/users/login', challenge)
        .on('POST', '/users/login/second-step', json(400, { status: 'fail', code: 'INVALID_CODE', message: TWO_STEP_MESSAGES.invalidCode }));
      const { user } = renderApp('/login');
      await signInWithPassword(user);
      await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
      await user.type(screen.getByLabelText('Recovery code'), 'abcd-efgh-jkmn-pqrs');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(TWO_STEP_MESSAGES.invalidCode);
      expect(api.calls.at(-1)?.body).toEqual({ token: 'tok', recoveryCode: 'abcd-efgh-jkmn-pqrs' });
      expect(localStorage.getItem(LOGGED_IN_FLAG)).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Start over' }));
      expect(await screen.findByLabelText('Password')).toHaveValue('');
    });
  });
});
