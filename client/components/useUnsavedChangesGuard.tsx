import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { UNSAVED_CHANGES_LABELS as L } from '../../shared/constants/labels';
import { ConfirmModal } from './ConfirmModal';

export interface UnsavedChangesGuard {
  /** The confirmation dialog: render it once in the page. */
  dialog: ReactElement;
  /** Runs `proceed` at once when nothing is unsaved, else after the user confirms leaving (a scope change, say). */
  confirmLeave: (proceed: () => void) => void;
}

/** The same-origin address a click on a link would open in this tab, or undefined when the click is not such a navigation. */
function linkTarget(event: MouseEvent): URL | undefined {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return undefined;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement)) return undefined;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return undefined;
  const url = new URL(anchor.href, window.location.href);
  return url.origin === window.location.origin ? url : undefined;
}

/**
 * Keeps a form's unsaved changes from being lost by accident (the app's declarative
 * BrowserRouter has no `useBlocker`): while `dirty`, reloading or closing the tab asks the
 * browser's own question (`beforeunload`), and a click on a same-origin link (the menu, the
 * breadcrumbs, a link of the page) is held in the capture phase, before the router sees it,
 * and goes on only when the user confirms in the dialog ('Salir sin guardar'). `confirmLeave`
 * puts any other way out (a scope select) behind the same dialog.
 */
export function useUnsavedChangesGuard(dirty: boolean): UnsavedChangesGuard {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  const [pending, setPending] = useState<{ proceed: () => void } | null>(null);

  useEffect(() => {
    here.current = location;
  }, [location]);

  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      const url = linkTarget(event);
      if (!url) return;
      const current = here.current;
      // A link to this same page (an anchor within it) loses nothing.
      if (url.pathname === current.pathname && url.search === current.search) return;
      event.preventDefault();
      event.stopPropagation();
      setPending({ proceed: () => void navigate(`${url.pathname}${url.search}${url.hash}`) });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, navigate]);

  const confirmLeave = useCallback(
    (proceed: () => void) => {
      if (dirty) setPending({ proceed });
      else proceed();
    },
    [dirty],
  );

  const dialog = (
    <ConfirmModal
      show={pending !== null}
      title={L.title}
      message={L.question}
      confirmLabel={L.leave}
      cancelLabel={L.stay}
      onClose={() => setPending(null)}
      onConfirm={() => {
        const next = pending;
        setPending(null);
        next?.proceed();
      }}
    />
  );
  return { dialog, confirmLeave };
}
