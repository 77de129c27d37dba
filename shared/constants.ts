/**
 * Business constants shared by the server and the web app. No Node and no DOM APIs here.
 * The product's numbers (limits, lifetimes, policies) in one place; server and web read them here.
 */

export const PRIORITIES = ['normal', 'low', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const DEFAULT_PRIORITY: Priority = 'normal';
/**
 * Priorities most pressing first: the order of `sort=priority`, of the board's filter buttons
 * (after "All Tasks") and of every priority select.
 */
export const PRIORITY_ORDER: readonly Priority[] = ['urgent', 'high', 'normal', 'low'];
/** A priority's place in PRIORITY_ORDER (0 is the most pressing). */
export const PRIORITY_RANK = Object.fromEntries(PRIORITY_ORDER.map((priority, rank) => [priority, rank])) as Readonly<Record<Priority, number>>;

export const STATUSES = ['todo', 'done'] as const;
export type TaskStatus = (typeof STATUSES)[number];
export const DEFAULT_STATUS: TaskStatus = 'todo';

export const LIMITS = {
  emailMax: 254,
  fullNameMin: 1,
  fullNameMax: 100,
  passwordMin: 8,
  passwordMax: 128,
  taskTitleMin: 3,
  taskTitleMax: 200,
  workTitleMax: 100,
  descriptionMax: 5000,
  commentMin: 1,
  commentMax: 2000,
  /** `q` of `GET /api/tasks`: a substring of at least this many characters uses the text index. */
  searchMin: 1,
  searchMax: 100,
  /** The rule of the original task-board client (it sends the whole task): it rejects a trimmed assignee shorter than this before sending. */
  assigneeMin: 3,
  otpLength: 6,
  /** Request bodies above this many bytes are answered 413. */
  bodyMaxBytes: 16 * 1024,
  /** The import routes' larger body limit (a Trello export, a CSV file); past it, 413. */
  importMaxBytes: 20 * 1024 * 1024,
  /** Page size bounds for `GET /api/tasks?limit=`. */
  pageMin: 1,
  pageMax: 500,
  boardNameMin: 1,
  boardNameMax: 80,
  boardDescriptionMax: 1000,
  labelNameMin: 1,
  labelNameMax: 40,
  labelsPerBoard: 100,
  labelsPerTask: 10,
  checklistTextMin: 1,
  checklistTextMax: 200,
  checklistItemsPerTask: 100,
  repeatEveryMin: 1,
  repeatEveryMax: 365,
  /** `Idempotency-Key` of the creates (tasks, comments): 1 to this many printable ASCII characters. */
  idempotencyKeyMax: 100,
} as const;

/** A repeat of a create with the same `Idempotency-Key` within this long answers the first answer again. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A label's color: one of a fixed palette, so every chip keeps AA contrast in both themes (the
 * web app maps each name to a light and a dark pair).
 */
export const LABEL_COLORS = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'indigo', 'purple', 'pink'] as const;
export type LabelColor = (typeof LABEL_COLORS)[number];

/** The unit of a repeating task's interval (`repeat: {every, unit}`). */
export const REPEAT_UNITS = ['day', 'week', 'month', 'year'] as const;
export type RepeatUnit = (typeof REPEAT_UNITS)[number];

export const BOARD_ROLES = ['admin', 'member', 'viewer'] as const;
export type BoardRole = (typeof BOARD_ROLES)[number];
export const MEMBER_STATUSES = ['active', 'invited'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
/** The name of every account's own board. */
export const PERSONAL_BOARD_NAME = 'Personal';

/** How far boards grow, and how fast people can be added (each addition sends a mail). */
export const BOARD_POLICY = {
  maxMembers: 1000,
  /** Shared boards one account may be on. */
  maxSharedBoardsPerAccount: 200,
  maxMemberAdditionsPerHour: 50,
} as const;

const MINUTE = 60_000;

export const OTP_POLICY = {
  ttlMs: 10 * MINUTE,
  maxWrongTries: 5,
  /** Wrong tries per address and purpose in any 24 hours, across codes: a new code brings no new guesses past it. */
  maxWrongTriesPerDay: 20,
  resendCooldownMs: 1 * MINUTE,
  maxPerEmailPerHour: 5,
  maxPerIpPerHour: 30,
} as const;

export const LOGIN_POLICY = {
  maxFailuresPerEmail: 10,
  windowMs: 15 * MINUTE,
  maxAttemptsPerIp: 100,
} as const;

export const SESSION_POLICY = {
  cookieName: 'taskwise_session',
  ttlMs: 30 * 24 * 60 * MINUTE,
  /** last_seen_at / expires_at are refreshed at most this often, to keep the per-request check a read. */
  touchIntervalMs: 5 * MINUTE,
} as const;

/** `view` of `GET /api/tasks`: whose tasks to list (all means every task the user can see). */
export const TASK_VIEWS = ['all', 'assigned-to-me', 'created-by-me'] as const;
export type TaskView = (typeof TASK_VIEWS)[number];
export const DEFAULT_VIEW: TaskView = 'all';

/** `sort` of `GET /api/tasks`: newest first; deadline soonest first (none last); priority urgent → low. */
export const TASK_SORTS = ['newest', 'deadline', 'priority'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];
export const DEFAULT_SORT: TaskSort = 'newest';
/**
 * The task fields `q` of `GET /api/tasks` searches (a case-insensitive substring of any of them):
 * a change to one of them can move a task into or out of a searched list.
 */
export const SEARCHED_TASK_FIELDS = ['taskTitle', 'workTitle', 'description', 'assignee'] as const;

/** localStorage key of the "signed in" flag (the name the original task-board client uses). */
export const LOGGED_IN_FLAG = 'isLoggedIn';
