import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/**
 * The one SMTP catcher of the tests: a real SMTP server (smtp-server, no auth, no STARTTLS) on
 * 127.0.0.1 that keeps every mail in memory and, given a directory, also writes each one there
 * as a JSON file, so other processes (the Playwright workers) can read them (`readCaughtMails`).
 */

export interface CaughtMail {
  to: string[];
  subject: string;
  /** The plain-text body (the text/plain part of a multipart mail). */
  text: string;
  /** The HTML body, or '' for a text-only mail. */
  html: string;
  /** A header of the message (unfolded), or '' when absent. */
  header(name: string): string;
  raw: string;
}

export interface MailCatcher {
  port: number;
  mails: CaughtMail[];
  /** The newest mail to `address`; fails the test when there is none. */
  last(address: string): CaughtMail;
  /** Every mail to `address`, oldest first. */
  to(address: string): CaughtMail[];
  /** While true, every mail is refused with a temporary error (451), as a server in trouble does. */
  refuse: boolean;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * A header as read (RFC 2047): runs of encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) joined as
 * bytes first — a word may end in the middle of a character — then read as UTF-8.
 */
function decodeHeader(value: string): string {
  return value.replace(/=\?[^?]+\?[BQ]\?[^?]*\?=(?:\s+=\?[^?]+\?[BQ]\?[^?]*\?=)*/gi, (run) => {
    const bytes = [...run.matchAll(/=\?[^?]+\?([BQ])\?([^?]*)\?=/gi)].map(([, encoding, data = '']) =>
      encoding?.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64')
        : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1'),
    );
    return Buffer.concat(bytes).toString('utf8');
  });
}

interface Part {
  header(name: string): string;
  body: string;
}

function splitPart(raw: string): Part {
  const split = raw.indexOf('\r\n\r\n');
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r\n[ \t]+/g, ' ');
  const body = split < 0 ? '' : raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  return { header, body };
}

function decodeBody(part: Part): string {
  const encoding = part.header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(part.body)
      : encoding === 'base64'
        ? Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : part.body;
  return text.replace(/\r\n/g, '\n');
}

/** The leaf parts of a (possibly nested) multipart body, by content type. */
function leaves(part: Part, into: Map<string, string>): void {
  const type = part.header('Content-Type');
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary !== undefined) {
    const sections = part.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      leaves(splitPart(section.replace(/^\r\n/, '')), into);
    }
    return;
  }
  const mime = (type.split(';')[0] ?? '').trim().toLowerCase() || 'text/plain';
  if (!into.has(mime)) into.set(mime, decodeBody(part));
}

/** Just enough MIME for our own mails: text, or multipart/alternative text + HTML. */
function parseMail(raw: string, to: string[]): CaughtMail {
  const message = splitPart(raw);
  const bodies = new Map<string, string>();
  leaves(message, bodies);
  return {
    to,
    subject: decodeHeader(message.header('Subject')),
    text: bodies.get('text/plain') ?? '',
    html: bodies.get('text/html') ?? '',
    header: (name) => message.header(name),
    raw,
  };
}

/** Starts the catcher on a free port; with `dir`, every mail also lands there as `<time>-<seq>.json`. */
export async function startMailCatcher(options: { dir?: string } = {}): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const { dir } = options;
  if (dir !== undefined) mkdirSync(dir, { recursive: true });
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    // No reverse DNS of 127.0.0.1 on every connection (it costs ~100 ms here).
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      if (state.refuse) {
        stream.resume();
        stream.on('end', () => {
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        });
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push(parseMail(raw, to));
        if (dir !== undefined) {
          const name = `${String(Date.now()).padStart(15, '0')}-${String(mails.length).padStart(6, '0')}.json`;
          // Written, then renamed: a reader never sees half a file.
          writeFileSync(join(dir, `.${name}.part`), JSON.stringify({ to, raw }));
          renameSync(join(dir, `.${name}.part`), join(dir, name));
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('The SMTP catcher has no TCP port');
  const to = (addr: string) => mails.filter((m) => m.to.includes(addr.toLowerCase()));
  return {
    port: address.port,
    mails,
    to,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    last(addr) {
      const mail = to(addr).at(-1);
      if (mail === undefined) throw new Error(`No mail was sent to ${addr}`);
      return mail;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Every mail a catcher started with `dir` has written there, oldest first. */
export function readCaughtMails(dir: string): CaughtMail[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return [];
  }
  return names.sort().map((n) => {
    const { to, raw } = JSON.parse(readFileSync(join(dir, n), 'utf8')) as { to: string[]; raw: string };
    return parseMail(raw, to);
  });
}

/** The six-digit code on its own line of a sign-up mail, if there is one. */
export function codeIn(mail: CaughtMail): string | undefined {
  return /^[ \t]*(\d{6})[ \t]*$/m.exec(mail.text)?.[1];
}

/** The six-digit code of a sign-up mail; fails the test when there is none. */
export function codeFrom(mail: CaughtMail): string {
  const code = codeIn(mail);
  if (code === undefined) throw new Error(`No code in the mail:\n${mail.text}`);
  return code;
}
