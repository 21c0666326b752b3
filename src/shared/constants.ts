export const ROLES = ['admin', 'brand'] as const;
export type Role = (typeof ROLES)[number];

export const MIN_PASSWORD_LENGTH = 8;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const DOCUMENT_MAX_BYTES = 25 * 1024 * 1024;
export const EDIT_FEEDBACK_MAX = 1000;
export const MAX_EXAMPLES = 3;
export const ESCROW_GUARANTEE_DAYS = 90;

/** Login throttle: more than this many failures for one e-mail inside the window → 429. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MINUTES = 15;

export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
export const MOBILE_BREAKPOINT = 768;
