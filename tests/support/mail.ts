import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../../src/server/db/client';
import { smtpMailer } from '../../src/server/mail/mailer';
import { deliverPending, type DeliveryOptions } from '../../src/server/mail/outbox';
import { receiptAttachments } from '../../src/server/modules/invoices/service';

export const TEST_FROM = 'Byline Test <mail@byline.test>';
export const TEST_BASE_URL = 'https://portal.byline.test';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  raw: string;
}

/** A real SMTP server on loopback: every message it accepts is parsed and kept in `mails`. */
export interface TestSmtp {
  port: number;
  url: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
  /** waits until at least `n` mails have arrived (or the time is up) */
  waitFor(n: number, ms?: number): Promise<ReceivedMail[]>;
  to(address: string): ReceivedMail[];
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        PostalMime.parse(raw).then(
          (m) => {
            mails.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              from: m.from?.address ?? '',
              subject: m.subject ?? '',
              text: m.text ?? '',
              html: m.html ?? '',
              messageId: m.messageId ?? '',
              raw,
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async waitFor(n, ms = 15_000) {
      const end = Date.now() + ms;
      while (mails.length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      return mails;
    },
    to: (address) => mails.filter((m) => m.to.includes(address)),
  };
}

function smtpDelivery(smtp: { url: string }): DeliveryOptions {
  return { mailer: smtpMailer(smtp.url), from: TEST_FROM, baseUrl: TEST_BASE_URL, attachments: receiptAttachments() };
}

/** Runs the mail worker's delivery over every pending outbox mail, into the test SMTP server. */
export async function runMailWorker(db: Db, smtp: { url: string }) {
  const delivery = smtpDelivery(smtp);
  try {
    return await deliverPending(db, delivery);
  } finally {
    delivery.mailer.close();
  }
}

/** The absolute URLs in a text part. */
export const linksIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
