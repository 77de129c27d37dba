import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '#web/lib/theme.ts';
import { countsAnswer, listAnswer, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';

function emptyBoard() {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', json(200, listAnswer([])))
    .always('GET', '/tasks/counts', json(200, countsAnswer(0, 0)));
}

async function openBoard() {
  const rendered = renderApp('/tasks', { signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'Tasks' }, { timeout: 5000 });
  return rendered;
}

describe('keyboard shortcuts', () => {
  it('n opens the new-task panel, / focuses the search, ? lists the shortcuts, Esc closes', async () => {
    emptyBoard();
    const { user } = await openBoard();

    await user.keyboard('n');
    const panel = await screen.findByRole('dialog', { name: 'Create Task' });
    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(panel).not.toBeInTheDocument();
    });

    await user.keyboard('/');
    const search = screen.getByRole('searchbox', { name: 'Search tasks' });
    expect(search).toHaveFocus();
    expect(search).toHaveValue(''); // the slash is not typed into the box

    search.blur();
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const keys = within(help).getAllByRole('row').slice(1).map((row) => row.querySelector('kbd')?.textContent);
    expect(keys).toEqual(['n', '/', '?', 'Esc']);
    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(help).not.toBeInTheDocument();
    });
  });

  it('fires no single-key shortcut while typing in a field or with a modifier key', async () => {
    emptyBoard();
    const { user } = await openBoard();
    const search = screen.getByRole('searchbox', { name: 'Search tasks' });
    await user.click(search);
    await user.keyboard('n?/');
    expect(search).toHaveValue('n?/');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    search.blur();
    await user.keyboard('{Control>}n{/Control}{Meta>}n{/Meta}{Alt>}n{/Alt}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('dark mode', () => {
  it('toggles from the nav bar, remembers the choice and sets it on <html>', async () => {
    emptyBoard();
    document.documentElement.dataset.theme = 'light';
    const { user } = await openBoard();
    const toggle = screen.getByRole('button', { name: 'Dark mode' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    await user.click(toggle);
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  it('starts from the theme set before the first paint', async () => {
    emptyBoard();
    document.documentElement.dataset.theme = 'dark';
    await openBoard();
    expect(screen.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
  });
});
