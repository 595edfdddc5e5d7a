import { useEffect, useState } from 'react';
import { NARROW_BREAKPOINT_PX } from '../../shared/constants/business';

/** True below NARROW_BREAKPOINT_PX. False on the server and on the first render (hydration). */
export function useNarrowScreen(): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const query = window.matchMedia(`(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}
