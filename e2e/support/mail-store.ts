/**
 * The caught-mail store: a real SMTP server (smtp-server, no auth, no STARTTLS) that writes every
 * message it accepts as one JSON file under a directory, and the reader the specs use to find a
 * one-time code in it. Files make the store readable from every Playwright worker process.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  receivedAt: number;
  seq: number;
  from: string;
  to: string[];
  raw: string;
}

export interface MailCatcher {
  port: number;
  close(): Promise<void>;
}

/** Starts the SMTP server on 127.0.0.1 and a free port; every mail lands in `dir` as `<time>-<seq>.json`. */
export async function startMailCatcher(dir: string): Promise<MailCatcher> {
  mkdirSync(dir, { recursive: true });
  let seq = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        seq += 1;
        const mail: CaughtMail = {
          receivedAt: Date.now(),
          seq,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        const name = `${String(mail.receivedAt).padStart(15, '0')}-${String(seq).padStart(6, '0')}.json`;
        // Write then rename, so a reader never sees half a file.
        writeFileSync(join(dir, `.${name}.part`), JSON.stringify(mail));
        renameSync(join(dir, `.${name}.part`), join(dir, name));
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
  if (!address || typeof address === 'string') throw new Error('SMTP server has no TCP address');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Every caught mail, oldest first. */
export function readMails(dir: string): CaughtMail[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return [];
  }
  return names.sort().map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as CaughtMail);
}

export function mailsTo(dir: string, email: string): CaughtMail[] {
  const address = email.trim().toLowerCase();
  return readMails(dir).filter((m) => m.to.includes(address));
}

// ---------------------------------------------------------------- minimal MIME reading

function splitHeadersAndBody(part: string): { headers: Map<string, string>; body: string } {
  const normalized = part.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Unfold continuation lines, then split "Name: value".
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\n/g, '');
  for (let i = 0; i < soft.length; i += 1) {
    const ch = soft[i]!;
    const hex = soft.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

/** The decoded text/plain parts of a raw message (walks nested multiparts). */
export function textParts(raw: string): string[] {
  const { headers, body } = splitHeadersAndBody(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const pieces = body.split(`--${boundary}`).slice(1);
    return pieces.filter((p) => !p.startsWith('--')).flatMap((p) => textParts(p.replace(/^\n/, '')));
  }
  if (/^text\/plain/i.test(type)) return [decodeBody(body, headers.get('content-transfer-encoding'))];
  return [];
}

/** The 6-digit code on its own line in the text body, if there is one. */
export function codeIn(mail: CaughtMail): string | undefined {
  for (const text of textParts(mail.raw)) {
    const match = /^[ \t]*(\d{6})[ \t]*$/m.exec(text.replace(/\r\n/g, '\n'));
    if (match) return match[1];
  }
  return undefined;
}

/**
 * Polls the store until a mail to `email` newer than `after` (a `CaughtMail.seq`-ordered count of
 * mails already seen for that address) carries a code, and returns the newest such code.
 */
export async function waitForCode(dir: string, email: string, options: { after?: number; timeoutMs?: number } = {}): Promise<string> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  const after = options.after ?? 0;
  for (;;) {
    const mails = mailsTo(dir, email).slice(after);
    for (const mail of mails.reverse()) {
      const code = codeIn(mail);
      if (code) return code;
    }
    if (Date.now() > deadline) {
      throw new Error(`No mail with a 6-digit code reached ${email} within ${options.timeoutMs ?? 15_000} ms (${mails.length} new mail(s) without one).`);
    }
    await delay(100);
  }
}
