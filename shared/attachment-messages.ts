import { message, text } from './i18n.ts';

/**
 * The API's texts about files on tasks (uploads, attachments, covers), used by the server only
 * (the web app shows them as the answers carry them). Kept out of shared/messages.ts, which the
 * web app loads on every page, /login included.
 */
export const ATTACHMENT_MESSAGES = {
  attachmentAdded: text('File added.'),
  fileTooLarge: (maxBytes: number) => message('A file can be at most {max, number} MB.', { max: Math.floor(maxBytes / 1_000_000) }),
  attachmentNotFound: text('File not found.'),
  attachmentsFull: text('A task has at most 100 files. Delete one to add another.'),
  boardStorageFull: text("This board's files have used all of its storage. Delete files to make room."),
  notAttachmentRemover: text('Only the person who added a file or an admin of the board can delete it.'),
  coverNotImage: text("The cover must be one of this task's images."),
  noFileSent: text('Send the file in the form field "file".'),
  oneFileOnly: text('Send one file at a time.'),
  uploadCutOff: text('The upload was cut off before the whole file arrived. Try again.'),
  uploadNotFound: text('Upload not found. It may have finished, been cancelled or expired; start it again.'),
  uploadLengthRequired: text("Send the file's size in Upload-Length when the upload is created."),
  uploadOffsetConflict: text('The upload is at another offset. Ask for it with HEAD and continue from there.'),
  uploadRequestInvalid: text('This is not a valid tus 1.0 request.'),
} as const;
