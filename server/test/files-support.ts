import { newId } from '../db/ids.ts';
import { createSignedInUser, createTask } from './factories.ts';
import type { TestApp } from './helpers.ts';

/** An attachment row on a new task of a new user, written directly (no upload, no file). */
export async function insertAttachment(t: TestApp, storageKey: string, thumbnailKey: string | null) {
  const { user, cookie } = await createSignedInUser(t);
  const task = await createTask(t, cookie);
  const id = newId();
  const size = thumbnailKey === null ? null : 40;
  await t.app.db
    .insertInto('attachments')
    .values({
      id, taskId: task._id, name: 'photo.jpg', size: 10, type: 'image/jpeg', width: size, height: size,
      storageKey, thumbnailKey, uploaderId: user.id, uploaderName: user.fullName, uploaderEmail: user.email, createdAt: t.clock.now().toISOString(),
    })
    .execute();
  return { id, taskId: task._id, cookie };
}
