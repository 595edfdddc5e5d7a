import { MENU_EDGE_PX, menuMaxHeight } from './useMenuRoom';

test('the room on the roomier side of the toggle, less the edges', () => {
  // Near the bottom of an 800 px window: the room above.
  expect(menuMaxHeight({ top: 740, bottom: 771 }, 800)).toBe(740 - 2 * MENU_EDGE_PX);
  // Near the top: the room below.
  expect(menuMaxHeight({ top: 200, bottom: 231 }, 800)).toBe(800 - 231 - 2 * MENU_EDGE_PX);
  // Fractional positions round down (the menu never pokes out by a fraction of a pixel).
  expect(menuMaxHeight({ top: 500.75, bottom: 531.75 }, 844)).toBe(500 - 2 * MENU_EDGE_PX);
});

test('never negative, even for a toggle outside the window', () => {
  expect(menuMaxHeight({ top: -50, bottom: 10 }, 10)).toBe(0);
});
