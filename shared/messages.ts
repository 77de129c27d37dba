import { message, text } from './i18n.ts';

/**
 * Every user-facing text that both sides need. The error texts are exact (the original
 * task-board client, which sends the whole task, and people know them): do not reword them.
 */

/** Texts the web app shows without asking the server. */
export const CLIENT_MESSAGES = {
  passwordMismatch: text('Password does not match!'),
  taskRequired: text('Task Title and Assignee are required.'),
  // i18n: Put before the server's message when asking for a code failed.
  otpErrorPrefix: text('Error: '),
  otpNetworkFailure: text('Failed to send OTP. Please try again.'),
  deleteFailedDefault: text('Error deleting task'),
  // i18n: Put before the reason the account could not be read.
  userInfoPrefix: text('Error fetching user info: '),
  userInfoFailure: text('Failed to fetch user info!'),
  // i18n: Put before the reason signing out failed.
  logoutPrefix: text('Error in Logout! '),
  logoutFailedDefault: text('Logout failed!'),
  sessionExpired: text('Your session has expired. Please sign in again.'),
  accountCreated: text('Account created. Please sign in.'),
  pageNotFound: text('Page not found'),
  creatingTask: text('Creating Task...'),
  /** A task created while offline: it is on the board and in this device's queue of changes. */
  createdOffline: text('Task saved on this device. It will be sent when you’re back online.'),
} as const;

/** Server answers whose wording the client and tests rely on. */
export const SERVER_MESSAGES = {
  otpSent: text('A one-time code has been sent to your e-mail address.'),
  registered: text('Your account has been created.'),
  invalidCode: text('The code is invalid or has expired. Please request a new one.'),
  codeTriesUsedUp: text('Too many wrong codes were entered for this address in the last 24 hours. Please try again tomorrow.'),
  loginSuccess: text('Signed in successfully.'),
  incorrectCredentials: text('Incorrect email or password.'),
  notAuthenticated: text('Please sign in to continue.'),
  loggedOut: text('Signed out successfully.'),
  taskCreated: text('Task created successfully.'),
  taskUpdated: text('Task updated successfully.'),
  bulkChangeKinds: text('Give exactly one kind of change.'),
  bulkVersionsCount: text('Give one version for each task id, in the order of taskIds.'),
  bulkVersionsTwice: text('A task id given twice has two different versions.'),
  // i18n: The answer of a change of many tasks at once.
  tasksChanged: (count: number) => message('{count, plural, one {# task changed.} other {# tasks changed.}}', { count }),
  taskNotFound: text('Task not found.'),
  taskBoardNotFound: text('Board not found.'),
  viewerCannotChangeTasks: text('Viewers of a board cannot change its tasks; they can see them and comment.'),
  mailCapReached: text('No e-mail was sent about it: your account has caused 100 e-mails in the last hour, the most allowed. Mail goes out again as the hour moves on.'),
  taskConflict: text('Someone else changed this task in the meantime. Nothing was saved; here is the current version.'),
  versionMismatch: text('The version in the body and in If-Match differ.'),
  ifMatchInvalid: text('If-Match must be a task version in quotes, like "3".'),
  idempotencyKeyInvalid: text('Idempotency-Key must be 1 to 100 printable ASCII characters (letters, digits, punctuation, spaces).'),
  idempotencyKeyReused: text('This Idempotency-Key was already used for another call. Use a new key for each new request.'),
  tooManyStreams: text('Too many open live connections for this account. Close a tab and try again.'),
  commentNotFound: text('Comment not found.'),
  commentAdded: text('Comment added.'),
  commentUpdated: text('Comment updated.'),
  notCommentAuthor: text('Only the author can change or delete a comment.'),
  checklistItemNotFound: text('Checklist item not found.'),
  checklistItemAdded: text('Checklist item added.'),
  checklistItemUpdated: text('Checklist item updated.'),
  checklistFull: text('A checklist has at most 100 items.'),
  checklistPositionOutOfRange: text('Position must be an index in the checklist (0 for the first item).'),
  repeatNeedsDeadline: text('A repeating task needs a deadline.'),
  tooManyRequests: text('Too many requests. Please try again later.'),
  validationFailed: text('Some fields are invalid.'),
  malformedJson: text('The request body is not valid JSON.'),
  unsupportedMediaType: text('Requests with a body must be sent as application/json.'),
  payloadTooLarge: text('The request body is too large.'),
  forbiddenOrigin: text('This origin is not allowed to call the API.'),
  serviceUnavailable: text('The service is temporarily unavailable. Please try again shortly.'),
  internalError: text('Something went wrong on our side. Please try again.'),
  routeNotFound: text('There is nothing at this address.'),
} as const;
