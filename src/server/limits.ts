import type { Config } from './config';
import type { Limit } from './lib/rate-limit';

/** Failed sign-ins for one account from anywhere after which each further try waits (never a lockout). */
export const SLOW_SIGNIN_AFTER_FAILURES = 10;
export const SIGNIN_SLOWDOWN_MS = 2_000;
const ACCOUNT_WINDOW_MS = 15 * 60_000;

export interface Limits {
  signups: Limit;
  signinFailuresPerAddress: Limit;
  signinFailuresPerAccount: Limit;
  /** counts an account's failures from every client (only slows guessing down) */
  signinFailuresAnywhere: Limit;
  passwordResetsPerAddress: Limit;
  passwordResetsPerEmail: Limit;
  inviteCodeAttempts: Limit;
  checkouts: Limit;
  messages: Limit;
  uploads: Limit;
  uploadBytes: Limit;
  /** per organisation: what it can make Byline mail to addresses it types (issue 57) */
  invitationMails: Limit;
  reportRecipients: Limit;
}

const cache = new WeakMap<Config, Limits>();

/** The limits of this configuration (each setting is "max/window" in config.ts). */
export function limitsFor(config: Config): Limits {
  let limits = cache.get(config);
  if (limits) return limits;
  limits = {
    signups: {
      bucket: 'signup-address',
      ...config.LIMIT_SIGNUPS_PER_ADDRESS,
      message: (when) => `Too many accounts have been created from your network. Please try again ${when}.`,
    },
    signinFailuresPerAddress: {
      bucket: 'signin-address',
      ...config.LIMIT_SIGNIN_FAILURES_PER_ADDRESS,
      message: (when) => `Too many failed sign-in attempts from your network. Please try again ${when}.`,
    },
    signinFailuresPerAccount: {
      bucket: 'signin-account-client',
      ...config.LIMIT_SIGNIN_FAILURES_PER_ACCOUNT,
      message: (when) => `Too many failed sign-in attempts. Please try again ${when}.`,
    },
    signinFailuresAnywhere: {
      bucket: 'signin-account',
      max: Number.MAX_SAFE_INTEGER,
      windowMs: ACCOUNT_WINDOW_MS,
      message: (when) => `Too many failed sign-in attempts. Please try again ${when}.`,
    },
    passwordResetsPerAddress: {
      bucket: 'password-reset-address',
      ...config.LIMIT_PASSWORD_RESETS_PER_ADDRESS,
      message: (when) => `Too many password reset requests from your network. Please try again ${when}.`,
    },
    passwordResetsPerEmail: {
      bucket: 'password-reset-email',
      max: 10,
      windowMs: ACCOUNT_WINDOW_MS,
      message: (when) => `Too many password reset requests. Please try again ${when}.`,
    },
    inviteCodeAttempts: {
      bucket: 'invite-code',
      ...config.LIMIT_INVITE_CODE_ATTEMPTS,
      message: (when) => `Too many invite code attempts. Please try again ${when}, or leave the code empty to wait for approval.`,
    },
    checkouts: {
      bucket: 'checkout',
      ...config.LIMIT_CHECKOUTS,
      message: (when) => `Too many checkouts started. Please try again ${when}.`,
    },
    messages: {
      bucket: 'message',
      ...config.LIMIT_MESSAGES,
      message: (when) => `You have sent too many messages. Please try again ${when}.`,
    },
    uploads: {
      bucket: 'upload',
      ...config.LIMIT_UPLOADS,
      message: (when) => `You have uploaded too many files today. Please try again ${when}.`,
    },
    uploadBytes: {
      bucket: 'upload-bytes',
      ...config.LIMIT_UPLOAD_BYTES,
      message: (when) => `You have uploaded too much today. Please try again ${when}.`,
    },
    invitationMails: {
      bucket: 'invitation-mail',
      ...config.LIMIT_INVITATION_MAILS,
      message: (when) => `Your organisation has sent too many invitations. Please try again ${when}.`,
    },
    reportRecipients: {
      bucket: 'report-recipient',
      ...config.LIMIT_REPORT_RECIPIENTS,
      message: (when) => `Your organisation has added too many report recipients. Please try again ${when}.`,
    },
  };
  cache.set(config, limits);
  return limits;
}

/** The longest window of any limit: counted events older than this are dropped. */
export const longestWindowMs = (limits: Limits) => Math.max(...Object.values(limits).map((l: Limit) => l.windowMs));
