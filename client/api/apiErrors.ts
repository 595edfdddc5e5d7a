import { isRejectedWithValue, type Middleware } from '@reduxjs/toolkit';
import type { ApiErrorBody } from '../../shared/contracts/apiError';
import { SPEC_TEXT } from '../../shared/messages';
import { toastError } from '../components/toast';
import type { ApiError, ApiExtra } from './axiosBaseQuery';

/** The text shown for a failed call (reference §8). */
export function errorMessage(error: ApiError): string {
  if (error.status === 'NETWORK_ERROR' || error.code === 'ERR_NETWORK') return SPEC_TEXT.networkError;
  const data = error.data as { message?: unknown } | string | null | undefined;
  if (data && typeof data === 'object' && typeof data.message === 'string' && data.message) return data.message;
  if (typeof data === 'string' && data) return data;
  return SPEC_TEXT.apiErrorFallback;
}

/** A failed save as a form shows it: the text, and the field it is about when the API named one. */
export interface FormError {
  message: string;
  /** The path the API named (`{ message, code, field }`), e.g. 'imei' or 'paths.1'. */
  field?: string;
}

/** The text of a failed call and, when the answer names one, the field it is about. */
export function formErrorOf(error: ApiError): FormError {
  const message = errorMessage(error);
  // A type check, not the zod schema: this module is in the entry chunk, which zod stays out of.
  const field = (error.data as Partial<ApiErrorBody> | null | undefined)?.field;
  return typeof field === 'string' && field ? { message, field } : { message };
}

/**
 * The one place API errors become visible: 401 ends the session (reference §8); every
 * other failure is an error toast.
 */
export function apiErrorMiddleware(extra: ApiExtra): Middleware {
  return () => (next) => (action) => {
    if (isRejectedWithValue(action)) {
      const error = action.payload as ApiError;
      if (error.status === 401) extra.onUnauthorized();
      else toastError(errorMessage(error));
    }
    return next(action);
  };
}
