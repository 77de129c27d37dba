import { text } from './i18n.ts';

/** Rules and texts of instance administration that the server and the web app share. */

/**
 * The ways an account can sign in, as the admin page lists them. Each has one probe in the
 * server's SQL (server/repositories/admin-repository.ts, SIGN_IN_METHOD_PROBES); a new way in
 * adds its name here and its probe there.
 */
export const SIGN_IN_METHODS = ['password', 'single-sign-on', 'passkey', 'two-step'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export const SIGN_IN_METHOD_LABELS: Record<SignInMethod, string> = {
  password: 'Password',
  'single-sign-on': 'Single sign-on',
  passkey: 'Passkey',
  'two-step': 'Two-step (authenticator app)',
};

/** What the audit log records. */
export const ADMIN_ACTIONS = ['deactivate', 'reactivate', 'reset-second-step', 'invite', 'promote', 'demote'] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export const ADMIN_ACTION_LABELS: Record<AdminAction, string> = {
  deactivate: 'Deactivated',
  reactivate: 'Reactivated',
  'reset-second-step': 'Reset the second step of',
  invite: 'Invited',
  promote: 'Made an admin:',
  demote: 'Took admin rights from',
};

export const ADMIN_POLICY = {
  /** Accounts and audit entries per page. */
  pageSize: 50,
  /** Admin actions (writes) per admin per hour, counted across instances. */
  maxActionsPerHour: 300,
  /** Longest search text. */
  searchMax: 100,
} as const;

export const ADMIN_MESSAGES = {
  deactivated: text('This account has been deactivated. Ask an administrator of this server to reactivate it.'),
  cannotDeactivateSelf: text('You cannot deactivate your own account: ask another admin, or use the admin command.'),
  accountDeactivated: text('The account is deactivated: its sessions ended, and it cannot sign in until it is reactivated.'),
  accountReactivated: text('The account is active again: it can sign in.'),
  secondStepReset: text('Two-step sign-in is off for this account: the password alone signs in, and it may set it up again.'),
  secondStepWasOff: text('Two-step sign-in was not set up for this account; nothing changed.'),
  invited: text('Invitation sent: the address may now sign up.'),
  accountExists: text('An account with this address already exists.'),
  registrationClosed: text('Sign-up on this server is closed (REGISTRATION=closed): create the account with the admin command instead.'),
} as const;
