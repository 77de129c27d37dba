import { onlineManager } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { attachmentUrl, thumbnailUrl, type Attachment } from '#shared/schemas/attachments.ts';
import { ADA, makeTask, meAnswer } from '#web/testing/data.ts';
import { json, mockFetch, noContent } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { TaskAttachments } from './task-attachments.tsx';

const attachment = (id: string, name: string, type: string, size: number, image?: { width: number; height: number }): Attachment => ({
  _id: id,
  name,
  size,
  type,
  url: attachmentUrl(id),
  ...(image ? { ...image, thumbnailUrl: thumbnailUrl(id) } : {}),
  by: ADA,
  createdAt: `2026-11-0${id.slice(1)}T10:00:00.000Z`,
});

const PHOTO = attachment('a3', 'photo.png', 'image/png', 880_000, { width: 480, height: 320 });
const SKETCH = attachment('a2', 'sketch.webp', 'image/webp', 120_000, { width: 300, height: 400 });
const REPORT = attachment('a1', 'report.pdf', 'application/pdf', 2_400_000);

/**
 * The browser's XMLHttpRequest as far as an upload uses it: the test says when the upload
 * progresses and what the server answers.
 */
class FakeXhr {
  static made: FakeXhr[] = [];
  method = '';
  url = '';
  withCredentials = false;
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.made.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader() {
    return null;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded, total });
    });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

beforeEach(() => {
  FakeXhr.made = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
  onlineManager.setOnline(true);
});

function setUp({ attachments = [PHOTO, SKETCH, REPORT], canChange = true, canDelete = () => true, coverId }: { attachments?: Attachment[]; canChange?: boolean; canDelete?: (uploaderEmail: string) => boolean; coverId?: string } = {}) {
  const cover = coverId ? { attachmentId: coverId, thumbnailUrl: thumbnailUrl(coverId), width: 480, height: 320 } : null;
  const task = makeTask({ attachmentCount: attachments.length, cover });
  localStorage.setItem(LOGGED_IN_FLAG, 'true');
  const api = mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .always('GET', `/tasks/${task._id}/attachments`, json(200, { status: 'success', data: { attachments } }));
  const onCover = vi.fn();
  const rendered = renderWithProviders(<TaskAttachments task={task} canChange={canChange} canDelete={canDelete} onCover={onCover} />);
  return { ...rendered, api, task, onCover };
}

const section = () => screen.getByRole('region', { name: /Attachments/ });
const lastXhr = () => FakeXhr.made.at(-1)!;

describe('a task’s attachments', () => {
  it('lists images as thumbnails and files with their type and size, names linking to the file', async () => {
    setUp({ coverId: 'a3' });
    const thumb = await screen.findByRole('img', { name: 'photo.png' });
    expect(thumb).toHaveAttribute('src', thumbnailUrl('a3'));
    expect(thumb).toHaveAttribute('width', '480');
    expect(thumb).toHaveAttribute('height', '320');
    expect(thumb).toHaveAttribute('loading', 'lazy');
    expect(screen.getByRole('link', { name: 'report.pdf' })).toHaveAttribute('href', attachmentUrl('a1'));
    expect(screen.getByRole('link', { name: 'report.pdf' })).toHaveAttribute('download', 'report.pdf');
    expect(screen.getByText('PDF · 2.4 MB')).toBeInTheDocument();
    expect(screen.getByText(/PNG image · 880 kB/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Attachments (3)' })).toBeInTheDocument();
    // The cover can be taken off; another image can become it; a PDF cannot.
    expect(screen.getByRole('button', { name: 'Remove cover photo.png' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Make cover sketch.webp' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /cover report\.pdf/ })).not.toBeInTheDocument();
  });

  it('hands the image to make the cover, or none to remove it', async () => {
    const { user, onCover } = setUp({ coverId: 'a3' });
    await user.click(await screen.findByRole('button', { name: 'Make cover sketch.webp' }));
    expect(onCover).toHaveBeenLastCalledWith(SKETCH);
    await user.click(screen.getByRole('button', { name: 'Remove cover photo.png' }));
    expect(onCover).toHaveBeenLastCalledWith(null);
  });

  it('asks before deleting, sends DELETE, and takes the file off the list', async () => {
    const { user, api, task } = setUp();
    await user.click(await screen.findByRole('button', { name: 'Delete report.pdf' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this file?' });
    expect(api.callsTo('DELETE', `/tasks/${task._id}/attachments/a1`)).toHaveLength(0);
    api.on('DELETE', `/tasks/${task._id}/attachments/a1`, noContent());
    await user.click(within(dialog).getByRole('button', { name: 'Delete file' }));
    await waitFor(() => {
      expect(screen.queryByRole('link', { name: 'report.pdf' })).not.toBeInTheDocument();
    });
    expect(api.callsTo('DELETE', `/tasks/${task._id}/attachments/a1`)).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of a delete in the dialog and keeps the file', async () => {
    const { user, api, task } = setUp();
    api.on('DELETE', `/tasks/${task._id}/attachments/a1`, json(403, { status: 'fail', code: 'FORBIDDEN', message: 'Only the uploader or a board admin may delete this file.' }));
    await user.click(await screen.findByRole('button', { name: 'Delete report.pdf' }));
    await user.click(screen.getByRole('button', { name: 'Delete file' }));
    expect(await within(screen.getByRole('alertdialog')).findByText('Only the uploader or a board admin may delete this file.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(screen.getByRole('link', { name: 'report.pdf' })).toBeInTheDocument();
  });

  it('uploads a picked file with its progress, then lists it', async () => {
    const { user, task } = setUp();
    await screen.findByRole('link', { name: 'report.pdf' });
    const file = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    await user.upload(screen.getByLabelText('Files to attach'), file);

    const xhr = lastXhr();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`/api/tasks/${task._id}/attachments`);
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.body).toBeInstanceOf(FormData);
    expect((xhr.body as FormData).get('file')).toBeInstanceOf(File);
    expect(((xhr.body as FormData).get('file') as File).name).toBe('notes.txt');

    xhr.progress(40, 100);
    const bar = screen.getByRole('progressbar', { name: 'Uploading notes.txt' });
    expect(bar).toHaveAttribute('value', '40');
    expect(screen.getByRole('button', { name: 'Cancel uploading notes.txt' })).toBeInTheDocument();

    act(() => {
      xhr.respond(201, { status: 'success', message: 'File attached.', data: { attachment: { ...attachment('a4', 'notes.txt', 'text/plain', 5), createdAt: '2026-12-01T10:00:00.000Z' } } });
    });
    expect(await screen.findByRole('link', { name: 'notes.txt' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // Newest first.
    expect(within(section()).getAllByRole('listitem')[0]).toHaveTextContent('notes.txt');
    expect(screen.getByRole('heading', { name: 'Attachments (4)' })).toBeInTheDocument();
  });

  it('shows a refused upload’s message on its row until dismissed', async () => {
    const { user } = setUp();
    await screen.findByRole('link', { name: 'report.pdf' });
    await user.upload(screen.getByLabelText('Files to attach'), new File(['x'], 'huge.mov', { type: 'video/quicktime' }));
    act(() => {
      lastXhr().respond(413, { status: 'fail', code: 'FILE_TOO_LARGE', message: 'A file can be at most 25 MB.' });
    });
    expect(await screen.findByText('A file can be at most 25 MB.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss huge.mov' }));
    expect(screen.queryByText('A file can be at most 25 MB.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add files' })).toHaveFocus();
  });

  it('cancels an upload: the request is aborted and its row goes', async () => {
    const { user } = setUp();
    await screen.findByRole('link', { name: 'report.pdf' });
    await user.upload(screen.getByLabelText('Files to attach'), new File(['x'], 'draft.txt', { type: 'text/plain' }));
    await user.click(screen.getByRole('button', { name: 'Cancel uploading draft.txt' }));
    expect(lastXhr().aborted).toBe(true);
    await waitFor(() => {
      expect(screen.queryByText('draft.txt')).not.toBeInTheDocument();
    });
  });

  it('uploads dropped files and a pasted image, but not a paste into a text field', async () => {
    setUp();
    await screen.findByRole('link', { name: 'report.pdf' });
    const dropped = new File(['a'], 'dropped.txt', { type: 'text/plain' });
    fireEvent.drop(section(), { dataTransfer: { files: [dropped], types: ['Files'] } });
    expect(screen.getByRole('progressbar', { name: 'Uploading dropped.txt' })).toBeInTheDocument();

    const paste = (target: EventTarget) => {
      const event = new Event('paste', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'clipboardData', { value: { files: [new File(['p'], 'shot.png', { type: 'image/png' })] } });
      act(() => {
        target.dispatchEvent(event);
      });
    };
    const field = document.body.appendChild(document.createElement('textarea'));
    paste(field);
    expect(FakeXhr.made).toHaveLength(1);
    field.remove();
    paste(document.body);
    expect(FakeXhr.made).toHaveLength(2);
    expect(screen.getByRole('progressbar', { name: 'Uploading shot.png' })).toBeInTheDocument();
  });

  it('offline: says attachments need a connection, offers no adding, and keeps the list', async () => {
    setUp();
    await screen.findByRole('link', { name: 'report.pdf' });
    act(() => {
      onlineManager.setOnline(false);
    });
    expect(screen.getByText('Attachments need a connection')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add files' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete report.pdf' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'report.pdf' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'photo.png' })).toBeInTheDocument();
  });

  it('offers no adding, cover or delete to someone who may only read the task', async () => {
    setUp({ canChange: false });
    await screen.findByRole('link', { name: 'report.pdf' });
    expect(screen.queryByRole('button', { name: 'Add files' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete|cover/ })).not.toBeInTheDocument();
  });

  it('offers Delete only for the files the person may delete (their own uploads, or all as the board’s admin), the cover to anyone who may change the task', async () => {
    const GRACE = { fullName: 'Grace Hopper', email: 'grace@example.com' };
    const hers = { ...attachment('a4', 'notes.txt', 'text/plain', 1_000), by: GRACE };
    const uploaders: string[] = [];
    setUp({ attachments: [PHOTO, hers], canDelete: (email) => (uploaders.push(email), email === GRACE.email) });
    await screen.findByRole('link', { name: 'notes.txt' });
    expect(screen.getByRole('button', { name: 'Delete notes.txt' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete photo.png' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Make cover photo.png' })).toBeInTheDocument();
    expect(uploaders).toEqual(expect.arrayContaining([ADA.email, GRACE.email]));
  });

  it('asks for nothing when the task has no files', () => {
    const task = makeTask();
    localStorage.setItem(LOGGED_IN_FLAG, 'true');
    const api = mockFetch().on('GET', '/users/me', json(200, meAnswer()));
    renderWithProviders(<TaskAttachments task={task} canChange canDelete={() => true} onCover={vi.fn()} />);
    expect(screen.getByText('No attachments yet.')).toBeInTheDocument();
    expect(api.callsTo('GET', `/tasks/${task._id}/attachments`)).toHaveLength(0);
  });

  it('shows the images one at a time in a viewer: arrows move, Esc closes back to the thumbnail', async () => {
    const { user } = setUp();
    const thumb = await screen.findByRole('button', { name: 'photo.png' });
    await user.click(thumb);
    const viewer = screen.getByRole('dialog', { name: 'photo.png' });
    expect(within(viewer).getByText('1 of 2')).toBeInTheDocument();
    expect(within(viewer).getByRole('img', { name: 'photo.png' })).toHaveAttribute('src', attachmentUrl('a3'));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'sketch.webp' })).toHaveTextContent('2 of 2');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('dialog', { name: 'photo.png' })).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'sketch.webp' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(thumb).toHaveFocus();
    });
  });
});
