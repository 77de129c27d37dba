/**
 * Locators for the app's screens, by role and accessible name, in one place so a
 * renamed control is fixed once. Names are the ones the web app renders (web/src/**).
 */
import type { Locator, Page } from '@playwright/test';

export const nav = (page: Page) => {
  const bar = page.getByRole('navigation').first();
  return {
    bar,
    welcome: bar.getByText(/^Welcome, /),
    home: bar.getByRole('link', { name: 'Home', exact: true }),
    tasks: bar.getByRole('link', { name: 'Tasks', exact: true }),
    login: bar.getByRole('link', { name: 'Login', exact: true }),
    signUp: bar.getByRole('link', { name: 'Sign Up', exact: true }),
    logout: bar.getByRole('button', { name: 'Logout', exact: true }),
  };
};

export const loginForm = (page: Page) => ({
  email: page.getByLabel('E-mail', { exact: true }),
  password: page.getByLabel('Password', { exact: true }),
  submit: page.getByRole('button', { name: /^Sign(ing)? in(…)?$/ }),
  signUpLink: page.getByRole('main').getByRole('link', { name: 'Create an account' }),
});

export const signUpForm = (page: Page) => ({
  fullName: page.getByLabel('Full name', { exact: true }),
  email: page.getByLabel('E-mail', { exact: true }),
  sendOtp: page.getByRole('button', { name: /^(Send OTP|Sending code)/ }),
  otp: page.getByLabel('One-time code', { exact: true }),
  password: page.getByLabel('Password', { exact: true }),
  confirm: page.getByLabel(/^Confirm password/i),
  create: page.getByRole('button', { name: /^Creat(e|ing) account/i }),
  resend: page.getByRole('button', { name: /^Resend code/i }),
  changeEmail: page.getByRole('button', { name: /^Change e-?mail/i }),
});

export const board = (page: Page) => {
  const dialog = page.getByRole('dialog');
  const todo = page.getByRole('region', { name: /^Tasks To Do/ });
  const done = page.getByRole('region', { name: /^Completed/ });
  return {
    createTask: page.getByRole('main').getByRole('button', { name: 'Create Task', exact: true }),
    dialog,
    form: {
      workTitle: dialog.getByLabel(/^Work title/),
      taskTitle: dialog.getByLabel(/^Task title/),
      assignee: dialog.getByLabel(/^Assignee/),
      deadline: dialog.getByLabel(/^Deadline/),
      priority: dialog.getByLabel(/^Priority/),
      submit: dialog.getByRole('button', { name: /^(Create Task|Creating Task\.\.\.)$/ }),
      close: dialog.getByRole('button', { name: /^Close/ }),
    },
    filter: (name: 'All Tasks' | 'Urgent' | 'High' | 'Normal' | 'Low') =>
      page.getByRole('group', { name: /filter/i }).getByRole('button', { name, exact: true }),
    todo,
    done,
    /** The count badge reads "3 tasks" to assistive technology ("3" plus hidden " tasks"). */
    todoCount: todo.getByText(/^(\d+|–) tasks?$/),
    doneCount: done.getByText(/^(\d+|–) tasks?$/),
    /** The card of a task: an article named by its (unique) title. */
    card: (title: string): Locator => page.getByRole('article', { name: title }),
    cards: page.getByRole('article'),
  };
};

export const cardActions = (card: Locator) => ({
  edit: card.getByRole('button', { name: /^Edit/ }),
  del: card.getByRole('button', { name: /^Delete/ }),
  complete: card.getByRole('button', { name: /^(Mark complete|Completing)/i }),
  assignee: card.getByLabel(/^Assignee/),
  priority: card.getByLabel(/^Priority/),
  start: card.getByLabel(/^Start/),
  save: card.getByRole('button', { name: /^Sav(e|ing)/ }),
  cancel: card.getByRole('button', { name: /^Cancel/ }),
});

/** What a column's count badge reads for `n` tasks. */
export const countText = (n: number): string => `${n} task${n === 1 ? '' : 's'}`;

/** An in-page alert (`role="alert"`) carrying `text`; there may be other alerts on the page. */
export const alertWith = (scope: Page | Locator, text: string): Locator => scope.getByRole('alert').filter({ hasText: text });

/** An in-page status message (`role="status"`) carrying `text`. */
export const statusWith = (scope: Page | Locator, text: string): Locator => scope.getByRole('status').filter({ hasText: text });

/** The board's second row: whose tasks, the search box and the sort order. */
export const boardControls = (page: Page) => ({
  view: (name: 'All' | 'Assigned to me' | 'Created by me') =>
    page.getByRole('group', { name: 'Show tasks' }).getByRole('button', { name, exact: true }),
  search: page.getByRole('searchbox', { name: 'Search tasks' }),
  sort: page.getByRole('combobox', { name: 'Sort by' }),
  overdue: page.getByTestId('overdue-count'),
  reopen: (card: Locator) => card.getByRole('button', { name: /^Reopen/ }),
});

/** The task page (a panel over the board on wide screens, a page of its own on narrow ones). */
export const taskPage = (page: Page) => {
  const comments = page.getByRole('region', { name: /^Comments/ });
  return {
    /** The panel's heading (h2 in the dialog) or the page's (h1). */
    heading: (title: string | RegExp) => page.getByRole('heading', { name: title }).first(),
    panel: page.getByRole('dialog'),
    close: page.getByRole('button', { name: 'Close task' }),
    editDescription: page.getByRole('button', { name: 'Edit description' }),
    description: page.getByRole('textbox', { name: 'Description' }),
    saveDescription: page.getByRole('button', { name: /^Sav(e description|ing)/ }),
    activity: page.getByRole('region', { name: 'Activity' }),
    comments,
    newComment: comments.getByRole('combobox', { name: 'Add a comment' }),
    postComment: comments.getByRole('button', { name: /^Post(ing)? comment|^Posting/ }),
    comment: (author: string) => comments.getByRole('article', { name: `Comment by ${author}` }),
  };
};
