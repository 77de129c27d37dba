import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

export interface MailCatcher {
  port: number;
  mails: CaughtMail[];
  /** The newest mail to `address`; fails the test when there is none. */
  last(address: string): CaughtMail;
  /** Every mail to `address`, oldest first. */
  to(address: string): CaughtMail[];
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Just enough MIME for our own single-part text mails. */
function parseMail(raw: string, to: string[]): CaughtMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { to, subject: header('Subject'), text: text.replace(/\r\n/g, '\n'), raw };
}

/** A real SMTP server on 127.0.0.1 that keeps every mail in memory (SPEC section 7). */
export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    // No reverse DNS of 127.0.0.1 on every connection (it costs ~100 ms here).
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
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
