/**
 * Toasts of the portal (reference §5, §9). Everything toasts through these helpers:
 * they use `react-toastify/unstyled` (no injected `<style>`, so the CSP needs no
 * `unsafe-inline`; the client entry imports `react-toastify/ReactToastify.css`), whose
 * toast store is not the one of the plain `react-toastify` entry. The library loads on the first
 * toast (and with the container, after the page is interactive: client/app/App.tsx), not with
 * the first download; a toast raised before the container mounts waits in the library's queue.
 */
import type { ToastOptions } from 'react-toastify/unstyled';
import { TOAST_AUTO_CLOSE_MS, TOAST_POSITION } from '../../shared/constants/business';

/** Top right, closing after 5000 ms, no progress bar (reference §9). */
export const TOAST_OPTIONS = {
  position: TOAST_POSITION,
  autoClose: TOAST_AUTO_CLOSE_MS,
  hideProgressBar: true,
} as const satisfies ToastOptions;

const library = () => import('react-toastify/unstyled');

/** Shows a success toast. The same text is not shown twice at once. */
export function toastSuccess(message: string): void {
  void library().then(({ toast }) => toast.success(message, { toastId: `success:${message}` }));
}

/** Shows an error toast. The same text is not shown twice at once (e.g. one network error for several calls). */
export function toastError(message: string): void {
  void library().then(({ toast }) => toast.error(message, { toastId: `error:${message}` }));
}
