/**
 * Business constants of spec §9 (and §4), in one place for the server and the browser.
 * Pure TypeScript with no imports: the client imports this file directly.
 */

/** Session cookie name and lifetime. */
export const SESSION_COOKIE_NAME = 'liuc';
export const SESSION_COOKIE_DAYS = 7;
/** The browser re-checks the session this often … */
export const SESSION_RECHECK_MS = 1000;
/** … and signs out after more than this many consecutive failed checks. */
export const SESSION_MAX_FAILURES = 10;
/** Roles are requested once, this long after start, if none are held. */
export const ROLES_FETCH_DELAY_MS = 1000;
export const LOGIN_PATH = '/auth/login';

/** Toasts. */
export const TOAST_MAX_VISIBLE = 5;
export const TOAST_DEFAULT_TIMEOUT_MS = 15_000;
export const TOAST_ACTION_RESPONSE_TIMEOUT_MS = 5_000;
export const TOAST_REMOVE_DELAY_MS = 300;
export const TOAST_VIEWPORT_WIDTH_PX = 450;
export const TOAST_HOTKEY = 'F8';
export const TOAST_SWIPE_THRESHOLD_PX = 50;

/** Timeout choices for toast_notification_timeout, in milliseconds; null = no timeout. */
export const TOAST_TIMEOUT_CHOICES_MS: readonly (number | null)[] = [
  null,
  5_000,
  10_000,
  15_000,
  20_000,
  30_000,
  60_000,
  2 * 60_000,
  5 * 60_000,
  10 * 60_000,
  15 * 60_000,
  30 * 60_000,
  60 * 60_000,
];

export const TOAST_TYPES = ['NOTIFICATION', 'ACTION_RESPONSE'] as const;
export const ACTION_RESPONSES = ['SUCCESS', 'FAILURE', 'PENDING'] as const;

/** Severity colours (INFO green, WARNING yellow, ERROR red, CRITICAL black). */
export const SEVERITY_COLOURS = { INFO: '#2e7d32', WARNING: '#f9a825', ERROR: '#c62828', CRITICAL: '#000000' } as const;
/** Action-response icon colours (success green, failure red, pending grey). */
export const ACTION_RESPONSE_COLOURS = { SUCCESS: '#2e7d32', FAILURE: '#c62828', PENDING: '#757575' } as const;

/** Sharing metadata default image. */
export const OG_IMAGE_DEFAULT = { width: 1200, height: 630, type: 'image/png' } as const;

/** Links prefetch with this viewport margin. */
export const LINK_PREFETCH_MARGIN_PX = 200;
