import { useState } from 'react';

/**
 * The value a form dialog shows: `editing`, and while the dialog fades out (`editing` back to
 * null) the last one, so it keeps its title and form until it is gone.
 */
export function useShownWhileClosing<T>(editing: T | null): T | null {
  const [shown, setShown] = useState(editing);
  if (editing !== null && editing !== shown) setShown(editing);
  return shown;
}
