import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { checkEmail, checkFullName, checkPassword, type Checked } from '#shared/validation.ts';
import { systemClock } from '../clock.ts';
import { newId } from '../db/ids.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createWriteTransaction } from '../events/write-transaction.ts';
import { createBoardsRepository } from '../repositories/boards-repository.ts';
import { createApiTokensRepository } from '../repositories/api-tokens-repository.ts';
import { createSessionsRepository } from '../repositories/sessions-repository.ts';
import { createTwoStepRepository } from '../repositories/two-step-repository.ts';
import { createAdminRepository } from '../repositories/admin-repository.ts';
import { COMMAND_ACTOR, resetSecondStep } from '../services/admins.ts';
import type { AdminAction } from '#shared/admin.ts';
import { createUsersRepository } from '../repositories/users-repository.ts';
import { createFileStore } from '../files/create-file-store.ts';
import { checkFiles } from '../files/sweeps.ts';
import { activateInvitations } from '../services/board-events.ts';
import { hashPassword } from '../services/passwords.ts';
import { CommandError, parseCommandArgs, readConfig, runCommand, withDatabase, type CommandOutput } from './common.ts';
import { newAccountLanguage } from '../i18n/account-language.ts';
import { english } from '../i18n/translate.ts';

/**
 * `npm run admin -- COMMAND`: account and file chores for the person with shell access, on the
 * database and files the server uses. Passwords follow the sign-up rules; a generated one is
 * printed once. `users:reset-2fa` turns two-step sign-in off for someone who lost their
 * authenticator app and recovery codes (or after SESSION_SECRET changed). `users:promote` and
 * `users:demote` make an account an instance admin or not (ADMIN_EMAILS makes admins too).
 * `files:check` compares attachment rows with the stored files and exits 1 when
 * they disagree.
 */
const USAGE =
  'Usage: npm run admin -- users:list | users:create --email E --name N [--password-stdin] | ' +
  'users:reset-password --email E [--password-stdin] | users:reset-2fa --email E | sessions:revoke --email E | files:check | ' +
  'users:promote --email E | users:demote --email E';

/** What `files:check` found, said so an operator knows what each kind means and what to do. */
function filesReport({ rowsWithoutFile, filesWithoutRow }: { rowsWithoutFile: string[]; filesWithoutRow: string[] }): CommandOutput {
  if (rowsWithoutFile.length === 0 && filesWithoutRow.length === 0) {
    return { text: 'Files and attachments agree: every attachment has its files, and every stored file belongs to an attachment or is about to be deleted.', exitCode: 0 };
  }
  const lines: string[] = [];
  if (rowsWithoutFile.length > 0) {
    lines.push(
      `${rowsWithoutFile.length} stored file(s) that attachments point at are missing (those attachments cannot be downloaded or shown; put the files back from a backup, or delete the attachments):`,
      ...rowsWithoutFile.map((key) => `  ${key}`),
    );
  }
  if (filesWithoutRow.length > 0) {
    lines.push(
      `${filesWithoutRow.length} stored file(s) belong to no attachment (left by a crash or a restore; they only take space and may be deleted):`,
      ...filesWithoutRow.map((key) => `  ${key}`),
    );
  }
  return { text: lines.join('\n'), exitCode: 1 };
}

const valueOf = <T>(checked: Checked<T>, what: string): T => {
  // The command speaks English, like the rest of its output.
  if (!checked.ok) throw new CommandError(`${what}: ${english(checked.message)}`);
  return checked.value;
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // `echo secret | …` adds one line break; it is not part of the password.
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** The password from standard input (--password-stdin), else a generated one that is printed. */
async function newPassword(email: string, fromStdin: boolean): Promise<{ password: string; generated: boolean }> {
  if (fromStdin) return { password: valueOf(checkPassword(await readStdin(), email), 'Password'), generated: false };
  return { password: randomBytes(12).toString('base64url'), generated: true };
}

await runCommand(async () => {
  const [command, ...rest] = process.argv.slice(2);
  const args = parseCommandArgs(
    { args: rest, options: { email: { type: 'string' }, name: { type: 'string' }, 'password-stdin': { type: 'boolean', default: false } } },
    USAGE,
  ).values;
  const email = () => valueOf(checkEmail(args.email ?? ''), '--email');
  const config = readConfig();

  return withDatabase(config, async ({ db, dialect }) => {
    // The same schema the server would create on start, so this works before its first start too.
    await migrateToLatest(db as Kysely<unknown>, dialect);
    const users = createUsersRepository(db);
    const sessions = createSessionsRepository(db);
    const tokens = createApiTokensRepository(db, dialect);
    const audit = (action: AdminAction, subjectEmail: string) =>
      createAdminRepository(db, dialect).record({ actorId: null, actorEmail: COMMAND_ACTOR, action, subjectEmail }, systemClock.now().toISOString());
    const revoked = (n: number) => (n === 0 ? '' : ` ${n} API token(s) revoked.`);
    const existing = async (address: string) => {
      const user = await users.findByEmail(address);
      if (user === undefined) throw new CommandError(`There is no account with the e-mail ${address}.`);
      return user;
    };

    switch (command) {
      case 'users:list': {
        const all = await users.listAll();
        if (all.length === 0) return 'No accounts yet.';
        return all.map((u) => `${u.email}\t${u.fullName}\t${u.createdAt.slice(0, 10)}`).join('\n');
      }
      case 'users:create': {
        const address = email();
        const fullName = valueOf(checkFullName(args.name ?? ''), '--name');
        if ((await users.findByEmail(address)) !== undefined) throw new CommandError(`An account with the e-mail ${address} already exists.`);
        const { password, generated } = await newPassword(address, args['password-stdin']);
        const now = systemClock.now().toISOString();
        const passwordHash = await hashPassword(password);
        // No stream of this process to wake: other instances learn of the events from the log.
        const activated = await createWriteTransaction(db, () => undefined)(async (trx) => {
          const id = newId();
          await users.insert({ id, email: address, fullName, passwordHash, createdAt: now, updatedAt: now, ...newAccountLanguage(undefined) }, trx);
          // As at sign-up: the boards the address was invited to become the account's.
          return activateInvitations(createBoardsRepository(db, dialect), trx, { id, email: address }, now);
        });
        const boards = activated === 0 ? '' : ` (now an active member of ${activated} board${activated === 1 ? '' : 's'} it was invited to)`;
        return generated
          ? `Created ${address}${boards}; one-time password: ${password} (pass it on privately; they should change it after signing in).`
          : `Created ${address}${boards}.`;
      }
      case 'users:reset-password': {
        const user = await existing(email());
        const { password, generated } = await newPassword(user.email, args['password-stdin']);
        const passwordHash = await hashPassword(password);
        // Like a reset by mail: every session and API token of the account ends.
        const [ended, tokensEnded] = await db.transaction().execute(async (trx) => {
          await users.updatePasswordHash(user.id, passwordHash, systemClock.now().toISOString(), trx);
          await createTwoStepRepository(db).deleteTokensOf(user.id, trx);
          return [await sessions.deleteAllForUser(user.id, trx), await tokens.deleteAllOf(user.id, trx)] as const;
        });
        return `New password for ${user.email}${generated ? `: ${password}` : ''}; ${ended} session(s) ended.${revoked(tokensEnded)}`;
      }
      case 'users:reset-2fa': {
        const user = await existing(email());
        // The authenticator secret, the recovery codes and any sign-in waiting for a code go:
        // the same function as the admin page's, and in its audit log too.
        const wasOn = await resetSecondStep(db, user.id);
        if (wasOn) await audit('reset-second-step', user.email);
        return wasOn
          ? `Two-step sign-in is off for ${user.email}; they sign in with the password alone and may set it up again.`
          : `Two-step sign-in was not set up for ${user.email}; nothing changed.`;
      }
      case 'users:promote':
      case 'users:demote': {
        const user = await existing(email());
        const promote = command === 'users:promote';
        const admins = createAdminRepository(db, dialect);
        const changed = await admins.setPromoted(user.id, promote ? systemClock.now().toISOString() : null);
        if (changed) await audit(promote ? 'promote' : 'demote', user.email);
        const inSetting = config.adminEmails.includes(user.email);
        if (promote) return changed ? `${user.email} is now an instance admin.` : `${user.email} was already promoted; nothing changed.`;
        const still = inSetting ? ` ${user.email} is still an admin through ADMIN_EMAILS: take the address out of that setting too.` : '';
        return (changed ? `${user.email} is no longer promoted to instance admin.` : `${user.email} was not promoted; nothing changed.`) + still;
      }
      case 'sessions:revoke': {
        const user = await existing(email());
        // Signing someone out everywhere takes their API tokens too.
        const [ended, tokensEnded] = await db.transaction().execute(
          async (trx) => [await sessions.deleteAllForUser(user.id, trx), await tokens.deleteAllOf(user.id, trx)] as const,
        );
        return `Ended ${ended} session(s) of ${user.email}.${revoked(tokensEnded)}`;
      }
      case 'files:check': {
        const store = createFileStore(config.files);
        try {
          return filesReport(await checkFiles(db, store));
        } finally {
          await store.close();
        }
      }
      default:
        throw new CommandError(command === undefined ? USAGE : `Unknown command "${command}". ${USAGE}`);
    }
  });
});
