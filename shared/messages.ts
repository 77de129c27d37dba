/**
 * Every user-facing text that both sides need. The error texts are exact (the original
 * task-board client, which sends the whole task, and people know them): do not reword them.
 */

/** Texts the web app shows without asking the server. */
export const CLIENT_MESSAGES = {
  passwordMismatch: 'Password does not match!',
  taskRequired: 'Task Title and Assignee are required.',
  otpErrorPrefix: 'Error: ',
  otpNetworkFailure: 'Failed to send OTP. Please try again.',
  deleteFailedDefault: 'Error deleting task',
  userInfoPrefix: 'Error fetching user info: ',
  userInfoFailure: 'Failed to fetch user info!',
  logoutPrefix: 'Error in Logout! ',
  logoutFailedDefault: 'Logout failed!',
  sessionExpired: 'Your session has expired. Please sign in again.',
  accountCreated: 'Account created. Please sign in.',
  pageNotFound: 'Page not found',
  creatingTask: 'Creating Task...',
  /** A task created while offline: it is on the board and in this device's queue of changes. */
  createdOffline: 'Task saved on this device. It will be sent when you’re back online.',
} as const;

/** Server answers whose wording the client and tests rely on. */
export const SERVER_MESSAGES = {
  otpSent: 'A one-time code has been sent to your e-mail address.',
  registered: 'Your account has been created.',
  invalidCode: 'The code is invalid or has expired. Please request a new one.',
  codeTriesUsedUp: 'Too many wrong codes were entered for this address in the last 24 hours. Please try again tomorrow.',
  loginSuccess: 'Signed in successfully.',
  incorrectCredentials: 'Incorrect email or password.',
  notAuthenticated: 'Please sign in to continue.',
  loggedOut: 'Signed out successfully.',
  taskCreated: 'Task created successfully.',
  taskUpdated: 'Task updated successfully.',
  bulkChangeKinds: 'Give exactly one kind of change.',
  bulkVersionsCount: 'Give one version for each task id, in the order of taskIds.',
  bulkVersionsTwice: 'A task id given twice has two different versions.',
  tasksChanged: (n: number) => (n === 1 ? '1 task changed.' : `${n} tasks changed.`),
  taskNotFound: 'Task not found.',
  taskBoardNotFound: 'Board not found.',
  viewerCannotChangeTasks: 'Viewers of a board cannot change its tasks; they can see them and comment.',
  mailCapReached: 'No e-mail was sent about it: your account has caused 100 e-mails in the last hour, the most allowed. Mail goes out again as the hour moves on.',
  taskConflict: 'Someone else changed this task in the meantime. Nothing was saved; here is the current version.',
  versionMismatch: 'The version in the body and in If-Match differ.',
  ifMatchInvalid: 'If-Match must be a task version in quotes, like "3".',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 100 printable ASCII characters (letters, digits, punctuation, spaces).',
  idempotencyKeyReused: 'This Idempotency-Key was already used for another call. Use a new key for each new request.',
  tooManyStreams: 'Too many open live connections for this account. Close a tab and try again.',
  commentNotFound: 'Comment not found.',
  commentAdded: 'Comment added.',
  commentUpdated: 'Comment updated.',
  notCommentAuthor: 'Only the author can change or delete a comment.',
  checklistItemNotFound: 'Checklist item not found.',
  checklistItemAdded: 'Checklist item added.',
  checklistItemUpdated: 'Checklist item updated.',
  checklistFull: 'A checklist has at most 100 items.',
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
  checklistPositionOutOfRange: 'Position must be an index in the checklist (0 for the first item).',
  repeatNeedsDeadline: 'A repeating task needs a deadline.',
  tooManyRequests: 'Too many requests. Please try again later.',
  validationFailed: 'Some fields are invalid.',
  malformedJson: 'The request body is not valid JSON.',
  unsupportedMediaType: 'Requests with a body must be sent as application/json.',
  payloadTooLarge: 'The request body is too large.',
  forbiddenOrigin: 'This origin is not allowed to call the API.',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again shortly.',
  internalError: 'Something went wrong on our side. Please try again.',
  routeNotFound: 'There is nothing at this address.',
} as const;

/**
 * What the board's polite live region says when someone else changes a task ("Ada Lovelace
 * completed “Send the invoice”"). `who` is the full name of the person who made the change.
 */
export const LIVE_MESSAGES = {
  created: (who: string, title: string) => `${who} created “${title}”`,
  assignedToYou: (who: string, title: string) => `${who} assigned “${title}” to you`,
  completed: (who: string, title: string) => `${who} completed “${title}”`,
  reopened: (who: string, title: string) => `${who} reopened “${title}”`,
  reassigned: (who: string, title: string, to: string) => `${who} assigned “${title}” to ${to}`,
  edited: (who: string, title: string) => `${who} edited “${title}”`,
  removed: (who: string, title: string) => `${who} removed “${title}” from your board`,
  removedUnknown: (who: string) => `${who} removed a task from your board`,
} as const;

/** The conflict dialog, shown when a save meets a newer version of the task. */
export const CONFLICT_MESSAGES = {
  title: 'This task changed while you were working on it',
  changedBy: (who: string) => `${who} saved a change to this task before you did.`,
  changedBySomeone: 'Someone else saved a change to this task before you did.',
  deleteNote: 'You tried to delete it.',
  applyMine: 'Apply mine on top',
  keepTheirs: 'Keep theirs',
} as const;
