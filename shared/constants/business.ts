/** Business constants and limits (reference §9). */

/** Toasts close on their own after this many milliseconds. */
export const TOAST_AUTO_CLOSE_MS = 5000 as const;
/** Toasts show in the top right corner, without a progress bar. */
export const TOAST_POSITION = 'top-right' as const;
/** The session is refreshed when the access token has this many seconds or less to live. */
export const TOKEN_REFRESH_THRESHOLD_SECONDS = 1000 as const;
/** The search input reports its value after this many milliseconds without typing. */
export const SEARCH_DEBOUNCE_MS = 500 as const;
/** Loading the user's data is retried this many extra times (5 attempts in total). */
export const USER_DATA_EXTRA_RETRIES = 4 as const;
/** Screens narrower than this (in px) show the menu children as a dropdown of icons. */
export const NARROW_BREAKPOINT_PX = 768 as const;
