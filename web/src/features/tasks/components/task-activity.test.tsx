import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Activity } from '#shared/schemas/comments.ts';
import { boardsAnswer, makeTask, meAnswer, PERSONAL_BOARD } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';

describe('task activity', () => {
  it('shows a move to another column of the same category with both column names', async () => {
    const task = makeTask({ _id: 't-moved', taskTitle: 'Ship v2' });
    const moved: Activity = {
      _id: 'a-1',
      type: 'updated',
      by: { fullName: 'Ada Admin', email: 'ada@example.test' },
      at: new Date().toISOString(),
      changes: { column: { from: 'Tasks To Do', to: 'Review' } },
    };
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/boards', json(200, boardsAnswer([PERSONAL_BOARD])))
      .always('GET', `/tasks/${task._id}`, json(200, { status: 'success', data: { task } }))
      .always('GET', `/tasks/${task._id}/comments`, json(200, { status: 'success', data: { comments: [] } }))
      .always('GET', `/tasks/${task._id}/activity`, json(200, { status: 'success', data: { activity: [moved] } }));
    renderApp(`/tasks/${task._id}`, { signedIn: true });
    const section = (await screen.findByRole('heading', { name: 'Activity' }, { timeout: 5000 })).closest('section')!;
    const change = await within(section).findByText('column');
    const line = change.closest('li') as HTMLElement;
    expect(within(line).getByRole('deletion').textContent).toBe('Tasks To Do');
    expect(within(line).getByRole('insertion').textContent).toBe('Review');
    expect(within(section).getByText(/Ada Admin/).closest('p')?.textContent).toContain('changed');
    // The person's name stands apart in the sentence: bold, the address its tooltip, laid out in
    // the direction of its own letters (an Arabic name in an English sentence, and the reverse).
    const author = within(section).getByText('Ada Admin');
    expect(author.tagName).toBe('STRONG');
    expect(author.getAttribute('title')).toBe('ada@example.test');
    expect(author.getAttribute('dir')).toBe('auto');
  });
});
