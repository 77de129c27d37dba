import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { ADA, countsAnswer, listAnswer, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';

function boardAnswers(api: ReturnType<typeof mockFetch>) {
  return api.always('GET', '/tasks', json(200, listAnswer([]))).always('GET', '/tasks/counts', json(200, countsAnswer(0, 0)));
}

describe('route guards', () => {
  it('sends a signed-out visitor of /tasks to /login and back to /tasks after signing in (the data layer loaded then)', async () => {
    const api = mockFetch();
    // As in a browser: the signed-out pages have no query client; signing in brings it.
    const { user } = renderApp('/tasks', { dataLayerOnSignIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login?next=%2Ftasks');
    // The title is set by an effect, which may run after the page's first paint.
    await waitFor(() => {
      expect(document.title).toBe('Sign in · Taskwise');
    });

    api.on('POST', '/users/login', json(200, { status: 'success', message: 'Signed in successfully.', data: { user: ADA } }));
    boardAnswers(api);
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Tasks' })).toBeInTheDocument();
    expect(currentPath()).toBe('/tasks');
    expect(localStorage.getItem(LOGGED_IN_FLAG)).not.toBeNull();
    expect(screen.getByText(/Welcome,/)).toHaveTextContent('Welcome, Ada Lovelace');
  });

  it('sends a signed-out visitor of / to a plain /login', async () => {
    mockFetch();
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it.each(['//evil.example/phish', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])(
    'ignores the unsafe return path %j and goes home',
    async (next) => {
      const api = mockFetch();
      const { user } = renderApp(`/login?next=${encodeURIComponent(next)}`);
      api.on('POST', '/users/login', json(200, { status: 'success', message: 'ok', data: { user: ADA } }));
      await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
      await user.type(screen.getByLabelText('Password'), 'correct horse battery');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      await waitFor(() => {
        expect(currentPath()).toBe('/');
      });
      expect(await screen.findByRole('heading', { level: 1, name: /Work, assigned and done/ })).toBeInTheDocument();
    },
  );

  it('sends a signed-in user away from /login and /sign-up to /', async () => {
    const api = mockFetch().always('GET', '/users/me', json(200, meAnswer()));
    renderApp('/login', { signedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: /Work, assigned and done/ })).toBeInTheDocument();
    expect(currentPath()).toBe('/');
    expect(api.callsTo('GET', '/users/me')).not.toHaveLength(0);
  });

  it('sends a signed-in user from /sign-up to /', async () => {
    mockFetch().always('GET', '/users/me', json(200, meAnswer()));
    renderApp('/sign-up', { signedIn: true });
    await waitFor(() => {
      expect(currentPath()).toBe('/');
    });
  });

  it('redirects /signup to /sign-up', async () => {
    mockFetch();
    renderApp('/signup');
    expect(await screen.findByRole('heading', { level: 1, name: 'Create your account' })).toBeInTheDocument();
    expect(currentPath()).toBe('/sign-up');
    await waitFor(() => {
      expect(document.title).toBe('Sign up · Taskwise');
    });
  });

  it('shows "Page not found" with a link home for any other path', async () => {
    mockFetch();
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    await waitFor(() => {
      expect(document.title).toBe('Page not found · Taskwise');
    });
  });
});

describe('navigation bar', () => {
  it('shows Login and Sign Up when signed out', async () => {
    mockFetch();
    renderApp('/login');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(nav).toHaveTextContent('Login');
    expect(nav).toHaveTextContent('Sign Up');
    expect(nav).not.toHaveTextContent('Logout');
  });

  it('starts as Guest with the flag, then shows the name from /users/me', async () => {
    mockFetch().on('GET', '/users/me', json(200, meAnswer()));
    renderApp('/', { signedIn: true });
    expect(screen.getByText(/Welcome,/)).toHaveTextContent('Welcome, Guest');
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Tasks' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });
});

describe('landing page', () => {
  it('has a hero, six feature cards, calls to action, the current year and 50 hidden particles', async () => {
    mockFetch().on('GET', '/users/me', json(200, meAnswer()));
    const { container } = renderApp('/', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: /Work, assigned and done/ });
    const features = ['Smart automation', 'Real-time analytics', 'Goal tracking', 'Team sync', 'Custom workflows', 'Integration hub'];
    for (const name of features) expect(screen.getByRole('heading', { level: 3, name })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open your board' })).toHaveAttribute('href', '/tasks');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/sign-up');
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()} Taskwise`))).toBeInTheDocument();
    const particles = container.querySelectorAll('[aria-hidden="true"] > .particle');
    expect(particles).toHaveLength(50);
    expect(new Set(Array.from(particles, (p) => p.parentElement))).toHaveProperty('size', 1);
    await waitFor(() => {
      expect(document.title).toBe('Taskwise');
    });
  });
});
