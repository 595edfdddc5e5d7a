import { act } from '@testing-library/react';
import type { ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';

/**
 * Renders `element` on the "server" (renderToString), hydrates it in jsdom and fails on any
 * hydration error or console error. `inspect` then looks at the hydrated DOM.
 */
export function expectCleanHydration(element: ReactElement, inspect: (root: HTMLElement) => void): void {
  const root = document.createElement('div');
  root.innerHTML = renderToString(element);
  document.body.appendChild(root);
  const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const recoverable: unknown[] = [];
  try {
    act(() => {
      hydrateRoot(root, element, { onRecoverableError: (e) => recoverable.push(e) });
    });
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    inspect(root);
  } finally {
    errors.mockRestore();
    root.remove();
  }
}
