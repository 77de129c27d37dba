/**
 * The API's texts about files on tasks (uploads, attachments, covers), used by the server only
 * (the web app shows them as the answers carry them). Kept out of shared/messages.ts, which the
 * web app loads on every page, /login included.
 */
export const ATTACHMENT_MESSAGES = {
  attachmentAdded: 'File added.',
  fileTooLarge: (maxBytes: number) => `A file can be at most ${Math.floor(maxBytes / 1_000_000).toLocaleString('en')} MB.`,
  attachmentNotFound: 'File not found.',
  attachmentsFull: 'A task has at most 100 files. Delete one to add another.',
  boardStorageFull: "This board's files have used all of its storage. Delete files to make room.",
  notAttachmentRemover: 'Only the person who added a file or an admin of the board can delete it.',
  coverNotImage: "The cover must be one of this task's images.",
  noFileSent: 'Send the file in the form field "file".',
  oneFileOnly: 'Send one file at a time.',
  uploadCutOff: 'The upload was cut off before the whole file arrived. Try again.',
  uploadNotFound: 'Upload not found. It may have finished, been cancelled or expired; start it again.',
  uploadLengthRequired: "Send the file's size in Upload-Length when the upload is created.",
  uploadOffsetConflict: 'The upload is at another offset. Ask for it with HEAD and continue from there.',
  uploadRequestInvalid: 'This is not a valid tus 1.0 request.',
} as const;
