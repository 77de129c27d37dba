import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { QUEUED_WRITES } from '#web/lib/write-queue.ts';
import { countsAnswer, listAnswer, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderApp } from '#web/testing/render.tsx';
import { syncText } from './sync-status.tsx';

afterEach(() => {
  onlineManager.setOnline(true);
});

describe('syncText', () => {
  it('says where the changes stand', () => {
    expect(syncText({ online: false, waiting: 0 })).toBe('Offline');
    expect(syncText({ online: false, waiting: 1 })).toBe('Offline — 1 change waiting');
    expect(syncText({ online: false, waiting: 4 })).toBe('Offline — 4 changes waiting');
    expect(syncText({ online: true, waiting: 2 })).toBe('Syncing…');
    expect(syncText({ online: true, waiting: 0 })).toBe('All changes saved');
  });
});

describe('the status line in the navigation bar', () => {
  function onBoard() {
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/tasks', json(200, listAnswer([])))
      .always('GET', '/tasks/counts', json(200, countsAnswer(0, 0)));
    return renderApp('/tasks', { signedIn: true });
  }
  const status = () => within(screen.getByRole('navigation', { name: 'Main' })).getByRole('status');

  /** A queued change whose answer the test gives. */
  function change(queryClient: QueryClient): () => void {
    let answer: () => void = () => undefined;
    const mutation = queryClient.getMutationCache().build(queryClient, {
      mutationKey: ['test-change'],
      scope: QUEUED_WRITES,
      mutationFn: () => new Promise<void>((resolve) => (answer = resolve)),
    });
    void mutation.execute(undefined);
    return () => {
      answer();
    };
  }

  it('goes Offline → Offline — N changes waiting → Syncing… → All changes saved, politely, and the words stay for screen readers', async () => {
    const { queryClient } = onBoard();
    await screen.findByRole('heading', { level: 1, name: 'Tasks' }, { timeout: 5_000 });
    expect(status()).toHaveAttribute('aria-live', 'polite');
    expect(status()).toHaveTextContent('All changes saved');

    act(() => {
      onlineManager.setOnline(false);
    });
    expect(status()).toHaveTextContent(/^Offline$/);
    let first: () => void = () => undefined;
    let second: () => void = () => undefined;
    act(() => {
      first = change(queryClient);
      second = change(queryClient);
    });
    expect(status()).toHaveTextContent('Offline — 2 changes waiting');

    act(() => {
      onlineManager.setOnline(true);
    });
    expect(await within(screen.getByRole('navigation', { name: 'Main' })).findByText('Syncing…')).toBeInTheDocument();
    // One at a time, in order: the first is under way, the second waits its turn.
    await act(async () => {
      first();
      await Promise.resolve();
    });
    expect(status()).toHaveTextContent('Syncing…');
    await act(async () => {
      second();
      await Promise.resolve();
    });
    expect(await within(screen.getByRole('navigation', { name: 'Main' })).findByText('All changes saved')).toBeInTheDocument();
    expect(status()).not.toHaveClass('sync-status--quiet');
  });
});
