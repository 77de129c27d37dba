import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { boardAnswer, boardsAnswer, countsAnswer, listAnswer, makeBoard, makeMember, meAnswer, PERSONAL_BOARD } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { currentPath, renderApp } from '#web/testing/render.tsx';

const TEAM = makeBoard({ _id: 'team', name: 'Launch team' });

function api(boards = [PERSONAL_BOARD, TEAM]) {
  return mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/boards', json(200, boardsAnswer(boards)))
    .always('GET', '/tasks', json(200, listAnswer([])))
    .always('GET', '/tasks/counts', json(200, countsAnswer(0, 0)))
    .always('GET', '/boards/team/labels', json(200, { status: 'success', data: { labels: [] } }));
}

/** The request `fetch` was called with for `path` (its headers and raw body). */
function sent(fetch: ReturnType<typeof mockFetch>, path: string) {
  const call = fetch.spy.mock.calls.find(([input]) => typeof input === 'string' && input.startsWith(`/api${path}`));
  const init = call?.[1];
  return { headers: new Headers(init?.headers), body: init?.body };
}

describe('board settings: import and export', () => {
  it('links the CSV export and imports a CSV file as text/csv, saying how many tasks came in', async () => {
    const fetch = api();
    fetch.always('GET', '/boards/team', json(200, boardAnswer(TEAM, [makeMember()])));
    const { user } = renderApp('/boards/team/settings', { signedIn: true });
    const section = await screen.findByRole('region', { name: 'Import and export' }, { timeout: 5000 });
    expect(within(section).getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/boards/team/export.csv');

    const form = within(section).getByRole('form', { name: 'Import CSV' });
    await user.click(within(form).getByRole('button', { name: 'Import CSV' }));
    expect(within(form).getByText('Choose a CSV file.')).toBeInTheDocument();

    const file = new File(['taskTitle,assignee\nWrite the plan,ada@example.com\n'], 'tasks.csv', { type: 'text/csv' });
    await user.upload(within(form).getByLabelText('CSV file'), file);
    fetch.on('POST', '/boards/team/import.csv', json(201, { status: 'success', data: { counts: { tasks: 3 } } }));
    await user.click(within(form).getByRole('button', { name: 'Import CSV' }));
    expect(await within(form).findByText('Imported 3 tasks.')).toBeInTheDocument();
    const request = sent(fetch, '/boards/team/import.csv');
    expect(request.headers.get('content-type')).toBe('text/csv');
    expect(request.body).toBe(file);
  });

  it('lists the rows a refused CSV import names, readably', async () => {
    const fetch = api();
    fetch.always('GET', '/boards/team', json(200, boardAnswer(TEAM, [makeMember()])));
    const { user } = renderApp('/boards/team/settings', { signedIn: true });
    const form = await screen.findByRole('form', { name: 'Import CSV' }, { timeout: 5000 });
    await user.upload(within(form).getByLabelText('CSV file'), new File(['x'], 'bad.csv', { type: 'text/csv' }));
    fetch.on(
      'POST',
      '/boards/team/import.csv',
      json(400, {
        status: 'fail',
        code: 'VALIDATION_FAILED',
        message: 'Some rows are invalid; nothing was imported.',
        errors: [
          { field: 'row 2: assignee', message: 'Enter a valid e-mail address.' },
          { field: 'row 5: taskTitle', message: 'Task title must be at least 3 characters.' },
        ],
      }),
    );
    await user.click(within(form).getByRole('button', { name: 'Import CSV' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Some rows are invalid; nothing was imported.');
    expect(within(alert).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'row 2: assignee: Enter a valid e-mail address.',
      'row 5: taskTitle: Task title must be at least 3 characters.',
    ]);
  });

  it('offers a viewer the export but not the CSV import', async () => {
    const viewerBoard = { ...TEAM, role: 'viewer' as const };
    const fetch = api([PERSONAL_BOARD, viewerBoard]);
    fetch.always('GET', '/boards/team', json(200, boardAnswer(viewerBoard, [makeMember()])));
    renderApp('/boards/team/settings', { signedIn: true });
    const section = await screen.findByRole('region', { name: 'Import and export' }, { timeout: 5000 });
    expect(within(section).getByRole('link', { name: 'Export CSV' })).toBeInTheDocument();
    expect(within(section).queryByRole('form', { name: 'Import CSV' })).not.toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Import from Trello…' })).toBeInTheDocument();
  });
});

describe('Import from Trello', () => {
  it('imports an export from the "New board" dialog and opens the new board with what came over', async () => {
    const imported = makeBoard({ _id: 'from-trello', name: 'Website relaunch' });
    const fetch = api();
    fetch.always('GET', '/boards/from-trello', json(200, boardAnswer(imported)));
    const { user } = renderApp('/tasks', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Switch board' }, { timeout: 5000 }));
    await user.click(screen.getByRole('button', { name: 'New board' }));
    await user.click(within(screen.getByRole('dialog', { name: 'New board' })).getByRole('button', { name: 'Import from Trello…' }));
    const dialog = screen.getByRole('dialog', { name: 'Import from Trello' });
    const file = new File(['{"name":"Website relaunch","lists":[],"cards":[]}'], 'board.json', { type: 'application/json' });
    await user.upload(within(dialog).getByLabelText('Trello export (JSON)'), file);
    const message = 'Imported 5 tasks, 6 labels, 5 checklist items and 3 comments.';
    fetch.on('POST', '/boards/import/trello', json(201, { status: 'success', message, data: { board: imported, counts: { tasks: 5, labels: 6, checklistItems: 5, comments: 3 } } }));
    await user.click(within(dialog).getByRole('button', { name: 'Import board' }));
    await screen.findByRole('heading', { level: 1, name: 'Website relaunch' });
    expect(currentPath()).toBe('/boards/from-trello');
    expect(await screen.findByText(message)).toBeInTheDocument();
    const request = sent(fetch, '/boards/import/trello');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.body).toBe(file);
  });

  it('shows why an export was refused, with the fields, and stays open', async () => {
    const fetch = api();
    fetch.always('GET', '/boards/team', json(200, boardAnswer(TEAM, [makeMember()])));
    const { user } = renderApp('/boards/team/settings', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Import from Trello…' }, { timeout: 5000 }));
    const dialog = screen.getByRole('dialog', { name: 'Import from Trello' });
    await user.click(within(dialog).getByRole('button', { name: 'Import board' }));
    expect(within(dialog).getByText('Choose the JSON file of a Trello board export.')).toBeInTheDocument();
    await user.upload(within(dialog).getByLabelText('Trello export (JSON)'), new File(['[]'], 'x.json', { type: 'application/json' }));
    fetch.on(
      'POST',
      '/boards/import/trello',
      json(400, { status: 'fail', code: 'VALIDATION_FAILED', message: 'This is not a Trello board export.', errors: [{ field: 'cards[3].name', message: 'A card needs a name (text).' }] }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Import board' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('This is not a Trello board export.');
    expect(alert).toHaveTextContent('cards[3].name: A card needs a name (text).');
    await waitFor(() => {
      expect(currentPath()).toBe('/boards/team/settings');
    });
  });
});
