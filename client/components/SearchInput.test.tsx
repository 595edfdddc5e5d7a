/** @jest-environment jsdom */
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SearchInput, cleanSearchText } from './SearchInput';
import { expectCleanHydration } from '../../tests/helpers/hydration';

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

function setup(props: Partial<Parameters<typeof SearchInput>[0]> = {}) {
  const onSearch = jest.fn();
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime, delay: null });
  const view = render(<SearchInput onSearch={onSearch} ariaLabel="Buscar dispositivos" {...props} />);
  const input = screen.getByRole('searchbox', { name: 'Buscar dispositivos' }) as HTMLInputElement;
  return { onSearch, user, input, ...view };
}

const advance = (ms: number) => act(() => jest.advanceTimersByTime(ms));

test('cleanSearchText removes every ñ/Ñ and the leading spaces only', () => {
  expect(cleanSearchText('  Ñandú piña  ')).toBe('andú pia  ');
  expect(cleanSearchText('ññÑ')).toBe('');
  expect(cleanSearchText('356 938')).toBe('356 938');
});

test('the field shows the cleaned text as the user types', async () => {
  const { user, input } = setup();
  await user.type(input, '  ñAÑbñ c');
  expect(input.value).toBe('Ab c');
});

test('reports the cleaned text once, exactly 500 ms after the last keystroke', async () => {
  const { user, input, onSearch } = setup();
  await user.type(input, ' Piña');
  advance(499);
  expect(onSearch).not.toHaveBeenCalled();
  advance(1);
  expect(onSearch).toHaveBeenCalledTimes(1);
  expect(onSearch).toHaveBeenCalledWith('Pia');
  advance(2000);
  expect(onSearch).toHaveBeenCalledTimes(1);
});

test('a new keystroke restarts the timer', async () => {
  const { user, input, onSearch } = setup();
  await user.type(input, '35');
  advance(400);
  await user.type(input, '6');
  advance(400);
  expect(onSearch).not.toHaveBeenCalled();
  advance(99);
  expect(onSearch).not.toHaveBeenCalled();
  advance(1);
  expect(onSearch).toHaveBeenCalledTimes(1);
  expect(onSearch).toHaveBeenCalledWith('356');
});

test('typing only removed characters reports nothing', async () => {
  const { user, input, onSearch } = setup();
  await user.type(input, '  ñ');
  expect(input.value).toBe('');
  advance(1000);
  expect(onSearch).not.toHaveBeenCalled();
});

test('clearing the field reports the empty text', async () => {
  const { user, input, onSearch } = setup({ initialValue: 'abc' });
  expect(input.value).toBe('abc');
  await user.clear(input);
  advance(500);
  expect(onSearch).toHaveBeenCalledWith('');
});

test('placeholder: Spanish default, or the one given', () => {
  const { input, unmount } = setup();
  expect(input.placeholder).toBe('Buscar');
  unmount();
  expect(setup({ placeholder: 'IMEI o serie' }).input.placeholder).toBe('IMEI o serie');
});

test('nothing is reported after unmount', async () => {
  const { user, input, onSearch, unmount } = setup();
  await user.type(input, 'abc');
  unmount();
  advance(1000);
  expect(onSearch).not.toHaveBeenCalled();
});

test('renders the same on the server and in the browser (no hydration error)', () => {
  expectCleanHydration(<SearchInput onSearch={() => undefined} ariaLabel="Buscar" initialValue="356" />, (root) => {
    expect((root.querySelector('input') as HTMLInputElement).value).toBe('356');
  });
});
