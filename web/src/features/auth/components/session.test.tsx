import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import { ACCOUNT_LANGUAGE_KEY } from '#web/app/i18n.ts';
import { countsAnswer, listAnswer, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch, networkError } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';
import { askEarly } from '../api/get-me.ts';
import { VERIFY_RETRY_MS } from './session-provider.tsx';

describe('session start-up (/users/me)', () => {
  it('does not ask the server without the isLoggedIn flag', async () => {
    const api = mockFetch();
    renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(api.calls).toHaveLength(0);
  });

  it('without a copy on this device, shows "Guest" and asks for no board data until /users/me has confirmed the session', async () => {
    let confirm: (response: Response) => void = () => undefined;
    const api = mockFetch()
      .on('GET', '/users/me', () => new Promise<Response>((resolve) => (confirm = resolve)))
      .always('GET', '/tasks', json(200, listAnswer([])))
      .always('GET', '/tasks/counts', json(200, countsAnswer(0, 0)));
    renderApp('/tasks', { signedIn: true });
    // The bar's signed-in part comes with the signed-in chunk (a moment later in a test).
    expect(await screen.findByText(/Welcome,/)).toHaveTextContent('Welcome, Guest');
    expect(await screen.findByText('Loading…')).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toEqual(['/api/users/me']);

    confirm(json(200, meAnswer()));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tasks' })).toBeInTheDocument();
    expect(screen.getByText(/Welcome,/)).toHaveTextContent('Welcome, Ada Lovelace');
    await waitFor(() => {
      expect(api.callsTo('GET', '/tasks')).toHaveLength(2);
    });
    expect(api.calls[0]?.path).toBe('/api/users/me');
  });

  it('signs out quietly with the session-expired notice on 401', async () => {
    mockFetch().on('GET', '/users/me', json(401, { status: 'fail', code: 'NOT_AUTHENTICATED', message: 'Please sign in to continue.' }));
    renderApp('/tasks', { signedIn: true });
    const status = await screen.findByText(CLIENT_MESSAGES.sessionExpired);
    expect(status).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(currentPath()).toBe('/login?next=%2Ftasks');
    });
    expect(localStorage.getItem(LOGGED_IN_FLAG)).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveTextContent('Login');
  });

  // With this person's copy on the device a network failure keeps them signed in: device-session.test.tsx.
  it('shows "Error fetching user info: Failed to fetch user info!" and signs out when /users/me gets no answer twice and the device holds no copy', async () => {
    const api = mockFetch().on('GET', '/users/me', networkError()).on('GET', '/users/me', networkError());
    renderApp('/', { signedIn: true });
    const alert = await screen.findByRole('alert', {}, { timeout: VERIFY_RETRY_MS + 2000 });
    expect(api.callsTo('GET', '/users/me')).toHaveLength(2);
    expect(alert).toHaveTextContent('Error fetching user info: Failed to fetch user info!');
    await waitFor(() => {
      expect(currentPath()).toBe('/login');
    });
    expect(localStorage.getItem(LOGGED_IN_FLAG)).toBeNull();
  });

  it('asks /users/me once more a second after no answer (a page being left fails its request so), and stays signed in when it answers', async () => {
    const api = mockFetch().on('GET', '/users/me', networkError()).on('GET', '/users/me', json(200, meAnswer()));
    renderApp('/', { signedIn: true });
    await waitFor(
      () => {
        expect(api.callsTo('GET', '/users/me')).toHaveLength(2);
      },
      { timeout: VERIFY_RETRY_MS + 2000 },
    );
    expect(await screen.findByText(/Welcome,/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(localStorage.getItem(LOGGED_IN_FLAG)).not.toBeNull();
  });

  it('treats a server error like a network failure', async () => {
    mockFetch().on('GET', '/users/me', json(500, { status: 'error', code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' }));
    renderApp('/', { signedIn: true });
    expect(await screen.findByRole('alert')).toHaveTextContent(`${CLIENT_MESSAGES.userInfoPrefix}${CLIENT_MESSAGES.userInfoFailure}`);
    await waitFor(() => {
      expect(screen.getByRole('navigation', { name: 'Main' })).toHaveTextContent('Sign Up');
    });
  });

  it('takes the question asked at start-up (before the first render) as its first try, instead of asking again', async () => {
    const api = mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/tasks', json(200, listAnswer([])))
      .always('GET', '/tasks/counts', json(200, countsAnswer(0, 0)));
    localStorage.setItem(LOGGED_IN_FLAG, 'true');
    void askEarly();
    expect(api.calls.map((c) => c.path)).toEqual(['/api/users/me']);
    renderApp('/tasks', { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Tasks' })).toBeInTheDocument();
    expect(screen.getByText(/Welcome,/)).toHaveTextContent('Welcome, Ada Lovelace');
    expect(api.callsTo('GET', '/users/me')).toHaveLength(1);
  });

  it('signs out with the session-expired notice when the start-up question answers 401 (nothing listened for 401s yet)', async () => {
    const api = mockFetch().on('GET', '/users/me', json(401, { status: 'fail', code: 'NOT_AUTHENTICATED', message: 'Please sign in to continue.' }));
    localStorage.setItem(LOGGED_IN_FLAG, 'true');
    // The answer comes before anything renders.
    await askEarly();
    renderApp('/tasks', { signedIn: true });
    expect(await screen.findByText(CLIENT_MESSAGES.sessionExpired)).toHaveAttribute('role', 'status');
    await waitFor(() => {
      expect(currentPath()).toBe('/login?next=%2Ftasks');
    });
    expect(localStorage.getItem(LOGGED_IN_FLAG)).toBeNull();
    expect(api.callsTo('GET', '/users/me')).toHaveLength(1);
  });

  it('leaving the page (pagehide) while the start-up question is out never signs out', async () => {
    // A browser cuts off the requests of a page being left: they fail like a lost connection.
    const api = mockFetch().on(
      'GET',
      '/users/me',
      () =>
        new Promise<Error>((resolve) => {
          window.addEventListener('pagehide', () => { resolve(networkError()); }, { once: true });
        }),
    );
    localStorage.setItem(LOGGED_IN_FLAG, 'true');
    void askEarly();
    renderApp('/tasks', { signedIn: true });
    window.dispatchEvent(new Event('pagehide'));
    await new Promise((resolve) => setTimeout(resolve, VERIFY_RETRY_MS + 200));
    // Not asked again a second later (a page that is gone never would be): the cut-off answer said nothing.
    expect(api.callsTo('GET', '/users/me')).toHaveLength(1);
    expect(localStorage.getItem(LOGGED_IN_FLAG)).not.toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(currentPath()).toBe('/tasks');
  });

  it('signs out with the expired notice when a board call answers 401 later', async () => {
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/tasks', json(401, { status: 'fail', code: 'NOT_AUTHENTICATED', message: 'Please sign in to continue.' }))
      .always('GET', '/tasks/counts', json(401, { status: 'fail', code: 'NOT_AUTHENTICATED', message: 'Please sign in to continue.' }));
    renderApp('/tasks', { signedIn: true });
    expect(await screen.findByText(CLIENT_MESSAGES.sessionExpired)).toBeInTheDocument();
    await waitFor(() => {
      expect(currentPath()).toBe('/login?next=%2Ftasks');
    });
    // One notice, however many calls failed.
    expect(screen.getAllByText(CLIENT_MESSAGES.sessionExpired)).toHaveLength(1);
  });
});

describe('logout', () => {
  function signedInOnBoard() {
    return mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/tasks', json(200, listAnswer([])))
      .always('GET', '/tasks/counts', json(200, countsAnswer(0, 0)));
  }

  it('removes the flag and goes to /login on success', async () => {
    const api = signedInOnBoard();
    const { user } = renderApp('/tasks', { signedIn: true });
    await screen.findByText('Ada Lovelace');
    api.on('POST', '/users/logout', json(200, { status: 'success', message: 'Signed out successfully.' }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => {
      expect(currentPath()).toBe('/login');
    });
    expect(localStorage.getItem(LOGGED_IN_FLAG)).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Main' })).not.toHaveTextContent('Welcome');
  });

  it('forgets the account’s language on this device: the page follows the browser’s again', async () => {
    localStorage.setItem(ACCOUNT_LANGUAGE_KEY, 'de');
    const api = signedInOnBoard();
    const { user } = renderApp('/tasks', { signedIn: true });
    await screen.findByText('Ada Lovelace');
    api.on('POST', '/users/logout', json(200, { status: 'success', message: 'Signed out successfully.' }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => {
      expect(currentPath()).toBe('/login');
    });
    expect(localStorage.getItem(ACCOUNT_LANGUAGE_KEY)).toBeNull();
    await waitFor(() => {
      expect(document.documentElement.lang).toBe('en');
    });
  });

  it('shows "Error in Logout! " and the server message on failure, and stays signed in', async () => {
    const api = signedInOnBoard();
    const { user } = renderApp('/tasks', { signedIn: true });
    await screen.findByText('Ada Lovelace');
    api.on('POST', '/users/logout', json(503, { status: 'error', code: 'SERVICE_UNAVAILABLE', message: 'Try again shortly.' }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error in Logout! Try again shortly.');
    expect(currentPath()).toBe('/tasks');
    expect(localStorage.getItem(LOGGED_IN_FLAG)).not.toBeNull();
  });

  it('uses "Logout failed!" when the failure carries no message', async () => {
    const api = signedInOnBoard();
    const { user } = renderApp('/tasks', { signedIn: true });
    await screen.findByText('Ada Lovelace');
    api.on('POST', '/users/logout', new Response('', { status: 500 }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Error in Logout! Logout failed!$/);
  });

  it('lets a notice be dismissed', async () => {
    const api = signedInOnBoard();
    const { user } = renderApp('/tasks', { signedIn: true });
    await screen.findByText('Ada Lovelace');
    api.on('POST', '/users/logout', new Response('', { status: 500 }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    const notices = screen.getByRole('region', { name: 'Messages' });
    await within(notices).findByRole('alert');
    await user.click(within(notices).getByRole('button', { name: 'Dismiss notification' }));
    expect(within(notices).queryByRole('alert')).not.toBeInTheDocument();
  });
});
