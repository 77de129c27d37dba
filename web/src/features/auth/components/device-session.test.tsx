import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import type { PublicUser } from '#shared/schemas/users.ts';
import { discardQuestion } from '#web/app/discard-changes-dialog.tsx';
import { memoryStore, type CopyStore } from '#web/lib/device-copy.ts';
import { QUEUED_WRITES } from '#web/lib/write-queue.ts';
import { ADA, countsAnswer, listAnswer, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch, networkError } from '#web/testing/fetch.ts';
import { currentPath, renderApp, testDeviceCopy } from '#web/testing/render.tsx';
import { discardedChangesMessage } from './session-provider.tsx';

/*
 * The device copy and the session: a reload with this person's copy on the device starts signed
 * in as them and shows their board from it; a network failure keeps them signed in; every way
 * the session ends empties the copy. jsdom has no IndexedDB: the copy is kept in a memory store
 * that clones what it is given, as IndexedDB does.
 */

const UNAUTHORIZED = json(401, { status: 'fail', code: 'NOT_AUTHENTICATED', message: 'Please sign in to continue.' });

afterEach(() => {
  onlineManager.setOnline(true);
});

/** Visits the board online once, so that the store holds Ada's copy with `title` on it. */
async function visitOnce(store: CopyStore, title: string): Promise<void> {
  mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', '/tasks', json(200, listAnswer([makeTask({ taskTitle: title })])))
    .always('GET', '/tasks/counts', json(200, countsAnswer(1, 0)));
  const deviceCopy = testDeviceCopy({ store });
  const { unmount } = renderApp('/tasks', { signedIn: true, deviceCopy });
  expect(await screen.findAllByText(title, undefined, { timeout: 5_000 })).not.toHaveLength(0);
  await waitFor(async () => {
    await deviceCopy.flush();
    expect(await store.get<PublicUser>('owner')).toEqual(ADA);
    expect(JSON.stringify(await store.get('query-client'))).toContain(title);
  });
  unmount();
}

/** Nothing of the person's is left in the store: neither whose it was nor what they saw. */
async function expectEmptied(store: CopyStore, title: string): Promise<void> {
  await waitFor(async () => {
    expect(await store.get('owner')).toBeUndefined();
    expect(JSON.stringify((await store.get('query-client')) ?? null)).not.toContain(title);
  });
}

/** Adds a change to the queue that waits (paused) while offline, as a queued write does. */
function queueChange(queryClient: QueryClient): void {
  onlineManager.setOnline(false);
  const mutation = queryClient.getMutationCache().build(queryClient, {
    mutationKey: ['test-change'],
    scope: QUEUED_WRITES,
    mutationFn: () => new Promise<void>(() => undefined),
  });
  void mutation.execute(undefined).catch(() => undefined);
}

describe('a reload with this person’s copy on the device', () => {
  it('starts signed in as them and shows the board from the copy, offline too, without an error', async () => {
    const store = memoryStore();
    await visitOnce(store, 'Oil the hinges');

    onlineManager.setOnline(false);
    const api = mockFetch().on('GET', '/users/me', networkError());
    renderApp('/tasks', { signedIn: true, deviceCopy: testDeviceCopy({ store, owner: await store.get<PublicUser>('owner') }) });
    // Their name at once, not "Guest".
    expect(screen.getByText(/Welcome,/)).toHaveTextContent('Welcome, Ada Lovelace');
    expect(await screen.findAllByText('Oil the hinges')).not.toHaveLength(0);
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('status')).toHaveTextContent('Offline');
    await waitFor(() => {
      expect(api.callsTo('GET', '/users/me')).toHaveLength(1);
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(localStorage.getItem(LOGGED_IN_FLAG)).not.toBeNull();
    expect(currentPath()).toBe('/tasks');
  });

  it('still signs out on a server error, and the copy is emptied', async () => {
    const store = memoryStore();
    await visitOnce(store, 'Grease the axle');
    mockFetch().on('GET', '/users/me', json(500, { status: 'error', code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' }));
    const deviceCopy = testDeviceCopy({ store, owner: ADA });
    const { queryClient } = renderApp('/tasks', { signedIn: true, deviceCopy });
    expect(await screen.findByRole('alert')).toHaveTextContent(`${CLIENT_MESSAGES.userInfoPrefix}${CLIENT_MESSAGES.userInfoFailure}`);
    await expectEmptied(store, 'Grease the axle');
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });

  it('signs out on a 401, empties the copy and says how many waiting changes were discarded', async () => {
    const store = memoryStore();
    await visitOnce(store, 'Mend the fence');
    // /users/me is answered once two changes wait.
    let answer: (response: Response) => void = () => undefined;
    mockFetch().on('GET', '/users/me', () => new Promise<Response>((resolve) => (answer = resolve)));
    const deviceCopy = testDeviceCopy({ store, owner: ADA });
    onlineManager.setOnline(false);
    const { queryClient } = renderApp('/tasks', { signedIn: true, deviceCopy });
    expect(await screen.findAllByText('Mend the fence')).not.toHaveLength(0);
    queueChange(queryClient);
    queueChange(queryClient);
    answer(UNAUTHORIZED);
    expect(await screen.findByText(CLIENT_MESSAGES.sessionExpired)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(discardedChangesMessage(2));
    await waitFor(() => {
      expect(currentPath()).toBe('/login?next=%2Ftasks');
    });
    await expectEmptied(store, 'Mend the fence');
    expect(queryClient.getMutationCache().getAll()).toHaveLength(0);
  });

  it('another person’s cookie: the copy of the previous one is dropped', async () => {
    const store = memoryStore();
    await visitOnce(store, 'Ada’s secret task');
    const grace = { fullName: 'Grace Hopper', email: 'grace@example.com' };
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer(grace)))
      .always('GET', '/tasks', json(200, listAnswer([makeTask({ taskTitle: 'Grace’s task' })])))
      .always('GET', '/tasks/counts', json(200, countsAnswer(1, 0)));
    renderApp('/tasks', { signedIn: true, deviceCopy: testDeviceCopy({ store, owner: ADA }) });
    expect(await screen.findAllByText('Grace’s task', undefined, { timeout: 5_000 })).not.toHaveLength(0);
    expect(screen.queryByText('Ada’s secret task')).not.toBeInTheDocument();
    await waitFor(async () => {
      expect(await store.get('owner')).toEqual(grace);
    });
  });
});

describe('logout and the device copy', () => {
  it('empties the copy (memory and store) on logout', async () => {
    const store = memoryStore();
    await visitOnce(store, 'Wash the windows');
    const api = mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .always('GET', '/tasks', json(200, listAnswer([makeTask({ taskTitle: 'Wash the windows' })])))
      .always('GET', '/tasks/counts', json(200, countsAnswer(1, 0)));
    const { user, queryClient } = renderApp('/tasks', { signedIn: true, deviceCopy: testDeviceCopy({ store, owner: ADA }) });
    expect(await screen.findAllByText('Wash the windows')).not.toHaveLength(0);
    api.on('POST', '/users/logout', json(200, { status: 'success', message: 'Signed out successfully.' }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => {
      expect(currentPath()).toBe('/login');
    });
    await expectEmptied(store, 'Wash the windows');
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });

  it('asks first when changes are waiting; "Keep them" stays signed in, confirming discards them', async () => {
    const store = memoryStore();
    await visitOnce(store, 'Paint the door');
    const api = mockFetch().on('GET', '/users/me', networkError());
    onlineManager.setOnline(false);
    const { user, queryClient } = renderApp('/tasks', { signedIn: true, deviceCopy: testDeviceCopy({ store, owner: ADA }) });
    expect(await screen.findAllByText('Paint the door')).not.toHaveLength(0);
    queueChange(queryClient);
    queueChange(queryClient);
    queueChange(queryClient);
    await waitFor(() => {
      expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('status')).toHaveTextContent('Offline — 3 changes waiting');
    });

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    expect(dialog).toHaveTextContent(discardQuestion(3));
    expect(discardQuestion(3)).toBe('3 changes haven’t been saved yet. Sign out and discard them?');
    await user.click(within(dialog).getByRole('button', { name: 'Keep them' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/users/logout')).toHaveLength(0);

    onlineManager.setOnline(true);
    api.on('POST', '/users/logout', json(200, { status: 'success', message: 'Signed out successfully.' }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Sign out and discard' }));
    await waitFor(() => {
      expect(currentPath()).toBe('/login');
    });
    expect(screen.getByRole('alert')).toHaveTextContent(discardedChangesMessage(3));
    await expectEmptied(store, 'Paint the door');
    expect(queryClient.getMutationCache().getAll()).toHaveLength(0);
  });
});
