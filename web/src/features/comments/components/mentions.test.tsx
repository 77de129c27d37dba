import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Comment, Person } from '#shared/schemas/comments.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { TaskComments } from './task-comments.tsx';
import { insertMention, matchPeople, mentionQueryAt } from './mention-autocomplete.tsx';
import { MentionText, mentionParts } from './mention-text.tsx';

const ada: Person = { fullName: 'Ada Lovelace', email: 'ada@example.com' };
const alan: Person = { fullName: 'Alan Turing', email: 'alan@example.com' };
const grace: Person = { fullName: 'Grace Hopper', email: 'gh@example.com' };
const people = [ada, alan, grace];

describe('mentionQueryAt', () => {
  it('finds the @ being typed and what follows it up to the caret', () => {
    expect(mentionQueryAt('Hi @ad', 6)).toEqual({ start: 3, query: 'ad' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('(@gr', 4)).toEqual({ start: 1, query: 'gr' });
  });

  it('ignores an address being typed, a finished word and text after a space', () => {
    expect(mentionQueryAt('mail bob@ex', 11)).toBeNull();
    expect(mentionQueryAt('@ada done', 9)).toBeNull();
    expect(mentionQueryAt('no at here', 10)).toBeNull();
  });
});

describe('matchPeople', () => {
  it('matches any word of the name, then the address, ignoring case', () => {
    expect(matchPeople(people, 'a')).toEqual([ada, alan]);
    expect(matchPeople(people, 'HOP')).toEqual([grace]);
    expect(matchPeople(people, 'gh@')).toEqual([grace]);
    expect(matchPeople(people, '')).toEqual(people);
    expect(matchPeople(people, 'zz')).toEqual([]);
  });
});

describe('insertMention', () => {
  it('replaces the typed mention with the address and a space, caret after it', () => {
    expect(insertMention('Hi @ad please', 3, 6, 'ada@example.com')).toEqual({ text: 'Hi @ada@example.com please', caret: 20 });
    expect(insertMention('@', 0, 1, 'ada@example.com')).toEqual({ text: '@ada@example.com ', caret: 17 });
  });
});

describe('mentionParts / MentionText', () => {
  it('shows only counted mentions, as names, and keeps other @text and links as they are', () => {
    const text = 'Ask @ADA@example.com or @nobody@example.com, see https://example.com/x.';
    expect(mentionParts(text, ['ada@example.com'], people)).toEqual([
      { text: 'Ask ' },
      { email: 'ada@example.com', name: 'Ada Lovelace' },
      { text: ' or @nobody@example.com, see ' },
      { text: 'https://example.com/x', href: 'https://example.com/x' },
      { text: '.' },
    ]);
  });

  it('renders the name with the address as title and accessible text, and never HTML', () => {
    const { container } = renderWithProviders(
      <MentionText text={'<b>hi</b> @ada@example.com @gh@example.com'} mentions={['ada@example.com', 'gh@example.com']} people={[ada]} />,
    );
    const mention = screen.getByTitle('ada@example.com');
    expect(mention).toHaveTextContent('@Ada Lovelace (ada@example.com)');
    // A mentioned address the list does not name shows as the address.
    expect(screen.getByTitle('gh@example.com')).toHaveTextContent('@gh@example.com');
    expect(container.querySelector('b')).toBeNull();
    expect(container).toHaveTextContent('<b>hi</b>');
  });
});

function commentsApi(message = 'Comment added.') {
  const posted: Comment[] = [];
  const api = mockFetch()
    .always('GET', '/tasks/t1/comments', () => json(200, { status: 'success', data: { comments: posted } }))
    .always('GET', '/tasks/t1/people', () => json(200, { status: 'success', data: { people } }))
    .always('POST', '/tasks/t1/comments', (call) => {
      const body = (call.body as { body: string }).body;
      const comment: Comment = {
        _id: `c${String(posted.length)}`,
        taskId: 't1',
        body,
        author: { fullName: 'Me', email: 'me@example.com' },
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        mentions: body.includes('@ada@example.com') ? ['ada@example.com'] : [],
      };
      posted.push(comment);
      return json(201, { status: 'success', message, data: { comment } });
    });
  return api;
}

/** The comments inside an element that closes on Escape, as the task dialog does. */
function Host() {
  const [closed, setClosed] = useState(false);
  return (
    <div
      onKeyDown={(event) => {
        if (event.key === 'Escape') setClosed(true);
      }}
    >
      {closed ? <p>Dialog closed</p> : <TaskComments taskId="t1" me="me@example.com" />}
    </div>
  );
}

describe('the comment box offers people after @', () => {
  it('is a combobox: arrows move, Enter inserts, Escape closes only the list', async () => {
    const api = commentsApi();
    const { user } = renderWithProviders(<Host />);
    const box = await screen.findByRole('combobox', { name: 'Add a comment' });
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(api.callsTo('GET', '/tasks/t1/people')).toHaveLength(0);

    await user.type(box, 'Hi @a');
    const list = await screen.findByRole('listbox', { name: 'People to mention' });
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(box).toHaveAttribute('aria-controls', list.id);
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Ada Lovelaceada@example.com', 'Alan Turingalan@example.com']);
    expect(box).toHaveAttribute('aria-activedescendant', options[0]?.id);
    expect(screen.getByText(/^2 people to mention\./)).toHaveAttribute('role', 'status');

    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]?.id);
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]?.id);
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('Hi @ada@example.com ');
    expect(screen.queryByRole('listbox')).toBeNull();

    await user.type(box, 'and @g');
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.queryByText('Dialog closed')).toBeNull();
    expect(box).toHaveValue('Hi @ada@example.com and @g');

    // With the list closed, Escape is the page's again.
    await user.keyboard('{Escape}');
    expect(screen.getByText('Dialog closed')).toBeInTheDocument();
  });

  it('typing on after Escape offers the list again', async () => {
    commentsApi();
    const { user } = renderWithProviders(<TaskComments taskId="t1" me="me@example.com" />);
    const box = await screen.findByRole('combobox', { name: 'Add a comment' });
    await user.type(box, '@a');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.type(box, 'l');
    expect(within(await screen.findByRole('listbox')).getAllByRole('option')).toHaveLength(1);
  });

  it('Tab inserts too; the posted comment shows the mention as the name', async () => {
    commentsApi();
    const { user } = renderWithProviders(<TaskComments taskId="t1" me="me@example.com" />);
    const box = await screen.findByRole('combobox', { name: 'Add a comment' });
    await user.type(box, '@lov');
    await screen.findByRole('listbox');
    await user.keyboard('{Tab}');
    expect(box).toHaveValue('@ada@example.com ');
    expect(box).toHaveFocus();
    await user.type(box, 'look');
    await user.click(screen.getByRole('button', { name: 'Post comment' }));
    await waitFor(() => {
      expect(screen.getByTitle('ada@example.com')).toHaveTextContent('@Ada Lovelace');
    });
  });

  it('says so when the sender\'s hourly cap held the mention mail back', async () => {
    commentsApi(`Comment added. ${SERVER_MESSAGES.mailCapReached}`);
    const { user } = renderWithProviders(<TaskComments taskId="t1" me="me@example.com" />);
    const box = await screen.findByRole('combobox', { name: 'Add a comment' });
    await user.type(box, 'Hi @ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Post comment' }));
    expect(await screen.findByText(SERVER_MESSAGES.mailCapReached)).toBeInTheDocument();
  });

  it('a click on a person inserts them', async () => {
    commentsApi();
    const { user } = renderWithProviders(<TaskComments taskId="t1" me="me@example.com" />);
    const box = await screen.findByRole('combobox', { name: 'Add a comment' });
    await user.type(box, '@gr');
    await user.click(await screen.findByRole('option', { name: /Grace Hopper/ }));
    expect(box).toHaveValue('@gh@example.com ');
    vi.restoreAllMocks();
  });
});
