import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';

interface OutgoingMail {
  /** the outbox row's id: also the Message-ID, so a receiver can drop a repeat */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** e.g. the receipt's invoice PDF */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** Hands one finished mail to its destination; throws when it could not (the job retries). */
export interface Mailer {
  kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export type MailLog = (line: string) => void;

const messageFields = (mail: OutgoingMail) => ({
  from: mail.from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  messageId: `<${mail.id}@byline.mail>`,
  ...(mail.attachments?.length ? { attachments: mail.attachments } : {}),
});

/** nodemailer over `SMTP_URL`. */
export function smtpMailer(url: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail(messageFields(mail));
    },
    close: () => transport.close(),
  };
}

/**
 * The default without SMTP: each mail becomes an .eml file under `dir` (open it in any mail
 * program) and a log line with subject and recipient, so a person trying the portal can read it.
 */
export function outboxMailer(dir: string, log: MailLog): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await transport.sendMail(messageFields(mail));
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.id}.eml`);
      await writeFile(file, info.message as Buffer);
      log(`mail to ${mail.to}: "${mail.subject}" written to ${file}`);
    },
    close: () => transport.close(),
  };
}

export function mailerFor(config: Config, log: MailLog): Mailer {
  return config.SMTP_URL ? smtpMailer(config.SMTP_URL) : outboxMailer(path.resolve(config.DATA_DIR, 'mail'), log);
}
