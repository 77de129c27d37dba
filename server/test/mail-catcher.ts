import { SMTPServer } from 'smtp-server';

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
    subject: message.header('Subject'),
    text: bodies.get('text/plain') ?? '',
    html: bodies.get('text/html') ?? '',
    header: (name) => message.header(name),
    raw,
  };
}

/** A real SMTP server on 127.0.0.1 that keeps every mail in memory (SPEC section 7). */
export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
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
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), to));
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

/** The six-digit code on its own line of a sign-up mail. */
export function codeFrom(mail: CaughtMail): string {
  const code = /^(\d{6})$/m.exec(mail.text)?.[1];
  if (code === undefined) throw new Error(`No code in the mail:\n${mail.text}`);
  return code;
}
