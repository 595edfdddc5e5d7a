import { onlyDefaults } from './persistUi';

describe('onlyDefaults (what the persisted UI preferences skip writing)', () => {
  test('the state redux-persist writes on a fresh page, the menu expanded, is the defaults', () => {
    expect(onlyDefaults(JSON.stringify({ menuCollapsed: 'false', _persist: JSON.stringify({ version: -1, rehydrated: true }) }))).toBe(true);
  });

  test('a collapsed menu is a preference to keep', () => {
    expect(onlyDefaults(JSON.stringify({ menuCollapsed: 'true', _persist: '{}' }))).toBe(false);
  });

  test('anything unreadable is written as it is', () => {
    expect(onlyDefaults('not json')).toBe(false);
  });
});
