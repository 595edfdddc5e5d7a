import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { scrollAction } from './scrollAction';

/** How long a restored position waits for the page to grow tall enough (its data loading). */
const RESTORE_WAIT_MS = 3000;
/** How long a new page's heading is waited for (its chunk loading). */
const FOCUS_WAIT_MS = 3000;

/** The window's scroll position per history entry (location.key), for Back and Forward. */
const positions = new Map<string, number>();

const USER_INPUT = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
/** The input that shows the user is busy on the page (a click, a tap, a key). */
const ACTING_INPUT = ['touchstart', 'keydown', 'mousedown'] as const;

/** The history entry the browser is on (BrowserRouter keeps its location.key in history.state). */
const currentEntry = (): unknown => (window.history.state as { key?: unknown } | null)?.key;

/**
 * Runs `ready` now and after each change of the document until it returns true, for at most
 * `waitMs` (and, with `stopOnUserInput`, until the user scrolls, types or clicks). Returns the stop.
 */
function whenReady(ready: () => boolean, waitMs: number, stopOnUserInput: boolean): () => void {
  if (ready()) return () => undefined;
  const observer = new MutationObserver(() => {
    if (ready()) stop();
  });
  const timer = window.setTimeout(stop, waitMs);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    if (stopOnUserInput) for (const e of USER_INPUT) window.removeEventListener(e, stop);
  }
  if (stopOnUserInput) for (const e of USER_INPUT) window.addEventListener(e, stop, { passive: true });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  return stop;
}

/** Moves focus to the page's main heading (without scrolling), so keyboard and screen-reader users start there. */
function focusHeading(): boolean {
  const h1 = document.querySelector<HTMLElement>('#main h1, main h1');
  if (!h1) return false;
  if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
  h1.focus({ preventScroll: true });
  return true;
}

/**
 * Scroll and focus on route changes (BrowserRouter has no ScrollRestoration): a new page opens
 * at the top with focus on its h1 (unless the user clicked or typed on it while it loaded); Back
 * and Forward restore the position the entry was left at.
 */
export function ScrollOnNavigate() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const previous = useRef<{ pathname: string; hash: string } | null>(null);
  /**
   * The history entry the user last clicked, tapped or typed on. A navigation changes the entry
   * at once and renders the page later (a transition waiting for its code): input on the new
   * entry before it renders means the user is busy there (a menu opened, a field typed in).
   */
  const actedOn = useRef<unknown>(undefined);

  useLayoutEffect(() => {
    const before = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    const acted = (e: Event) => {
      if (!(e instanceof KeyboardEvent && e.repeat)) actedOn.current = currentEntry();
    };
    for (const e of ACTING_INPUT) window.addEventListener(e, acted, { capture: true, passive: true });
    return () => {
      window.history.scrollRestoration = before;
      for (const e of ACTING_INPUT) window.removeEventListener(e, acted, { capture: true });
    };
  }, []);

  // Records the position of the current entry while it is shown (removed before the next page paints).
  useLayoutEffect(() => {
    const key = location.key;
    const save = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [location.key]);

  useLayoutEffect(() => {
    const prev = previous.current;
    previous.current = { pathname: location.pathname, hash: location.hash };
    if (!prev) return;
    const action = scrollAction(prev, location, navigationType);
    if (action === 'top') {
      // Instant: Bootstrap's `scroll-behavior: smooth` would otherwise animate the jump.
      window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
      // The focus is the user's once they acted on this page, before or while its heading comes.
      const busy = () => actedOn.current === location.key;
      return whenReady(() => busy() || focusHeading(), FOCUS_WAIT_MS, false);
    }
    if (action === 'restore') {
      const target = positions.get(location.key) ?? 0;
      return whenReady(
        () => {
          window.scrollTo({ top: target, left: 0, behavior: 'instant' });
          return Math.abs(window.scrollY - target) < 1;
        },
        RESTORE_WAIT_MS,
        true,
      );
    }
    return undefined;
  }, [location, navigationType]);

  return null;
}
