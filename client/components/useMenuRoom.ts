import { useCallback, useState, type CSSProperties } from 'react';

/** The space (px) a menu keeps from the window's top and bottom edges. */
export const MENU_EDGE_PX = 8;

/**
 * The tallest a dropdown menu opened from `toggle` may be: the room on the toggle's roomier side
 * (above or below, within the window), less the edge on both ends. Popper's flip then opens it
 * downwards when it fits there and upwards otherwise; a longer menu scrolls.
 */
export function menuMaxHeight(toggle: { top: number; bottom: number }, windowHeight: number): number {
  const below = windowHeight - toggle.bottom;
  const above = toggle.top;
  return Math.max(0, Math.floor(Math.max(below, above)) - 2 * MENU_EDGE_PX);
}

/**
 * For a react-bootstrap Dropdown whose menu may be taller than the room around its toggle (a
 * row menu near the bottom of the window): pass `setToggle` as the toggle's ref, `onToggle` to the
 * Dropdown and `menuStyle` to the menu. Each opening measures the room again.
 */
export function useMenuRoom<T extends HTMLElement = HTMLButtonElement>() {
  // A callback ref kept in state: the toggle is read when the menu opens, never during render.
  const [toggle, setToggle] = useState<T | null>(null);
  const [maxHeight, setMaxHeight] = useState<number | undefined>(undefined);
  const onToggle = useCallback(
    (show: boolean) => {
      if (show && toggle) setMaxHeight(menuMaxHeight(toggle.getBoundingClientRect(), window.innerHeight));
    },
    [toggle],
  );
  const menuStyle: CSSProperties | undefined = maxHeight === undefined ? undefined : { maxHeight, overflowY: 'auto' };
  return { setToggle, onToggle, menuStyle };
}
