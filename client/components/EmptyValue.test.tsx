/** @jest-environment jsdom */
import { render } from '@testing-library/react';
import { Value, displayValue } from './EmptyValue';

test('displayValue: "-" for null, undefined and the empty text; the value otherwise', () => {
  expect(displayValue(null)).toBe('-');
  expect(displayValue(undefined)).toBe('-');
  expect(displayValue('')).toBe('-');
  expect(displayValue('Samsung')).toBe('Samsung');
  expect(displayValue(' ')).toBe(' ');
  expect(displayValue(0)).toBe(0);
});

test('<Value/> renders the value or "-"', () => {
  expect(render(<Value value={null} />).container.textContent).toBe('-');
  expect(render(<Value value="" />).container.textContent).toBe('-');
  expect(render(<Value value={undefined} />).container.textContent).toBe('-');
  expect(render(<Value value="A52" />).container.textContent).toBe('A52');
  expect(render(<Value value={0} />).container.textContent).toBe('0');
});
