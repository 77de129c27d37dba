import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { boardAnswer, boardsAnswer, countsAnswer, listAnswer, makeBoard, makeMember, meAnswer, PERSONAL_BOARD } from '#web/testing/data.ts';
import { json, mockFetch, noContent } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';

const TEAM = makeBoard({ _id: 'team', name: 'Launch team', counts: { todo: 7, done: 2, overdue: 0 } });

function api(boards = [PERSONAL_BOARD, TEAM]) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/boards', json(200, boardsAnswer(boards)))
    .always('GET', '/tasks', json(200, listAnswer([])))
    .always('GET', '/tasks/counts', json(200, countsAnswer(0, 0)));
}

describe('the board switcher', () => {
  it('lists "All my tasks" and every board with its open count, marking the one on screen', async () => {
    const fetch = api();
    fetch.always('GET', '/boards/team', json(200, boardAnswer(TEAM)));
    const { user } = renderApp('/boards/team', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Launch team' }, { timeout: 10_000 });
    const toggle = screen.getByRole('button', { name: 'Switch board' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const nav = screen.getByRole('navigation', { name: 'Boards' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['All my tasks', 'Personal0 open', 'Launch team7 open']);
    expect(within(nav).getByRole('link', { name: /Launch team/ })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'All my tasks' })).not.toHaveAttribute('aria-current');
    // The board's lists and counts ask for that board only.
    await waitFor(() => {
      expect(fetch.callsTo('GET', '/tasks').length).toBeGreaterThan(0);
    });
    for (const call of [...fetch.callsTo('GET', '/tasks'), ...fetch.callsTo('GET', '/tasks/counts')]) expect(call.query.get('board')).toBe('team');
    // Esc closes the menu and gives focus back to its button.
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('creates a board from "New board" and opens it', async () => {
    const created = makeBoard({ _id: 'new-one', name: 'Garden' });
    const fetch = api();
    fetch.on('POST', '/boards', json(201, { status: 'success', data: { board: created } }));
    fetch.always('GET', '/boards/new-one', json(200, boardAnswer(created)));
    const { user } = renderApp('/tasks', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Switch board' }, { timeout: 5000 }));
    await user.click(screen.getByRole('button', { name: 'New board' }));
    const dialog = screen.getByRole('dialog', { name: 'New board' });
    await user.type(within(dialog).getByLabelText('Name'), '  Garden ');
    await user.click(within(dialog).getByRole('button', { name: 'Create board' }));
    // Created, then the board page: on a busy machine this takes more than the default second.
    await screen.findByRole('heading', { level: 1, name: 'Garden' }, { timeout: 5000 });
    expect(currentPath()).toBe('/boards/new-one');
    expect(fetch.callsTo('POST', '/boards')[0]?.body).toEqual({ name: 'Garden' });
  });

  it('"New board" checks the name by the server\'s rule before sending, and shows a refused name beside the field', async () => {
    const fetch = api();
    fetch.on('POST', '/boards', json(400, { status: 'fail', code: 'VALIDATION_ERROR', message: 'Invalid input.', errors: [{ field: 'name', message: 'Board name must be at most 80 characters.' }] }));
    const { user } = renderApp('/tasks', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Switch board' }, { timeout: 5000 }));
    await user.click(screen.getByRole('button', { name: 'New board' }));
    const dialog = screen.getByRole('dialog', { name: 'New board' });
    const name = within(dialog).getByLabelText('Name');
    await user.type(name, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Create board' }));
    expect(name).toHaveAccessibleDescription(/Board name is required\./);
    expect(name).toHaveFocus();
    expect(fetch.callsTo('POST', '/boards')).toHaveLength(0);

    await user.type(name, 'Garden');
    await user.click(within(dialog).getByRole('button', { name: 'Create board' }));
    await waitFor(() => {
      expect(name).toHaveAccessibleDescription(/Board name must be at most 80 characters\./);
    });
    expect(name).toHaveFocus();
  });

  it('says so when the board is not there or the viewer is not on it', async () => {
    const fetch = api();
    fetch.always('GET', '/boards/gone', json(404, { status: 'fail', code: 'NOT_FOUND', message: 'Board not found.' }));
    renderApp('/boards/gone', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Board not found' }, { timeout: 5000 });
    expect(screen.getByText(/you are not on this board/)).toBeInTheDocument();
  });
});

describe('board settings', () => {
  const members = [
    makeMember(),
    makeMember({ email: 'bob@example.com', fullName: 'Bob Byte', role: 'member' }),
    makeMember({ email: 'new@example.com', fullName: null, role: 'viewer', status: 'invited' }),
  ];

  function settings() {
    const fetch = api();
    fetch.always('GET', '/boards/team', json(200, boardAnswer(TEAM, members)));
    fetch.always('GET', '/boards/team/labels', json(200, { status: 'success', data: { labels: [] } }));
    fetch.always('GET', '/boards/team/webhooks', json(200, { status: 'success', data: { webhooks: [] } }));
    const rendered = renderApp('/boards/team/settings', { signedIn: true });
    return { fetch, ...rendered };
  }

  it('"About this board" uses the same rules: an empty name is refused before sending; a good one is saved trimmed', async () => {
    const { fetch, user } = settings();
    const form = await screen.findByRole('form', { name: 'About this board' }, { timeout: 5000 });
    const name = within(form).getByLabelText('Name');
    await user.clear(name);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(name).toHaveAccessibleDescription(/Board name is required\./);
    expect(name).toHaveFocus();
    expect(fetch.callsTo('PATCH', '/boards/team')).toHaveLength(0);

    fetch.on('PATCH', '/boards/team', json(200, { status: 'success', data: { board: { ...TEAM, name: 'Launch crew' } } }));
    await user.type(name, ' Launch crew ');
    await user.clear(within(form).getByLabelText('Description'));
    await user.type(within(form).getByLabelText('Description'), 'Ship it ');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(fetch.callsTo('PATCH', '/boards/team')[0]?.body).toEqual({ name: 'Launch crew', description: 'Ship it' });
    });
  });

  it('changes a role and removes a member', async () => {
    const { fetch, user } = settings();
    const role = await screen.findByRole('combobox', { name: 'Role of bob@example.com' }, { timeout: 5000 });
    expect(screen.getByText('Invited')).toBeInTheDocument();
    fetch.on('PATCH', '/boards/team/members/bob%40example.com', json(200, { status: 'success', data: { member: { ...members[1], role: 'viewer' } } }));
    await user.selectOptions(role, 'viewer');
    await waitFor(() => {
      expect(fetch.callsTo('PATCH', '/boards/team/members/bob%40example.com')[0]?.body).toEqual({ role: 'viewer' });
    });
    fetch.on('DELETE', '/boards/team/members/new%40example.com', noContent());
    await user.click(screen.getByRole('button', { name: 'Remove new@example.com' }));
    await waitFor(() => {
      expect(fetch.callsTo('DELETE', '/boards/team/members/new%40example.com')).toHaveLength(1);
    });
  });

  it('shows LAST_ADMIN beside the member it concerns, and keeps the role', async () => {
    const { fetch, user } = settings();
    const role = await screen.findByRole('combobox', { name: 'Role of ada@example.com' }, { timeout: 5000 });
    fetch.on(
      'PATCH',
      '/boards/team/members/ada%40example.com',
      json(409, { status: 'fail', code: 'LAST_ADMIN', message: 'A board needs at least one admin.' }),
    );
    await user.selectOptions(role, 'member');
    expect(await screen.findByRole('alert')).toHaveTextContent('A board needs at least one admin.');
    expect(role).toHaveValue('admin');
  });

  it('adds a member by e-mail with a role, and says when they are on the board already', async () => {
    const { fetch, user } = settings();
    const form = await screen.findByRole('form', { name: 'Add a member' }, { timeout: 5000 });
    fetch.on('POST', '/boards/team/members', json(409, { status: 'fail', code: 'ALREADY_MEMBER', message: 'That address is on the board already.' }));
    await user.type(within(form).getByLabelText('E-mail address'), 'bob@example.com');
    await user.selectOptions(within(form).getByLabelText('Role'), 'viewer');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(await within(form).findByText('That address is on the board already.')).toBeInTheDocument();
    expect(fetch.callsTo('POST', '/boards/team/members')[0]?.body).toEqual({ email: 'bob@example.com', role: 'viewer' });
  });

  it('deletes the board only once its name is typed, then goes to all tasks', async () => {
    const { fetch, user } = settings();
    await user.click(await screen.findByRole('button', { name: 'Delete board' }, { timeout: 5000 }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this board?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete board' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/Type the board’s name/), 'Launch tea');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/Type the board’s name/), 'm');
    expect(confirm).toBeEnabled();
    fetch.on('DELETE', '/boards/team', noContent());
    await user.click(confirm);
    await waitFor(() => {
      expect(currentPath()).toBe('/tasks');
    });
    expect(fetch.callsTo('DELETE', '/boards/team')).toHaveLength(1);
    expect(await screen.findByText('Deleted Launch team.')).toBeInTheDocument();
  });

  it('shows a viewer the board read-only, with "Leave board"', async () => {
    const viewerBoard = { ...TEAM, role: 'viewer' as const };
    const fetch = api([PERSONAL_BOARD, viewerBoard]);
    fetch.always('GET', '/boards/team', json(200, boardAnswer(viewerBoard, members)));
    renderApp('/boards/team/settings', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Launch team' }, { timeout: 5000 });
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a member' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete board' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave board' })).toBeInTheDocument();
  });
});
