/** @jest-environment jsdom */
import { render } from '@testing-library/react';
import { useIdlePrefetch } from './useIdlePrefetch';

function Probe({ load }: { load: () => Promise<void> }) {
  useIdlePrefetch({ load });
  return null;
}

afterEach(() => {
  jest.useRealTimers();
  delete (window as Partial<Window>).requestIdleCallback;
  delete (window as Partial<Window>).cancelIdleCallback;
});

test('loads the chunk once the browser is idle, not while the page renders', () => {
  const idle: IdleRequestCallback[] = [];
  window.requestIdleCallback = (cb) => idle.push(cb);
  window.cancelIdleCallback = jest.fn();
  const load = jest.fn(() => Promise.resolve());
  render(<Probe load={load} />);
  expect(load).not.toHaveBeenCalled();
  expect(idle).toHaveLength(1);
  idle[0]!({ didTimeout: false, timeRemaining: () => 10 });
  expect(load).toHaveBeenCalledTimes(1);
});

test('a page left before the browser is idle loads nothing', () => {
  window.requestIdleCallback = () => 7;
  const cancel = jest.fn();
  window.cancelIdleCallback = cancel;
  const load = jest.fn(() => Promise.resolve());
  render(<Probe load={load} />).unmount();
  expect(cancel).toHaveBeenCalledWith(7);
  expect(load).not.toHaveBeenCalled();
});

test('without requestIdleCallback (Safari) it waits for a timer; a failed fetch is not an unhandled rejection', async () => {
  jest.useFakeTimers();
  const load = jest.fn(() => Promise.reject(new Error('offline')));
  render(<Probe load={load} />);
  expect(load).not.toHaveBeenCalled();
  await jest.advanceTimersByTimeAsync(250);
  expect(load).toHaveBeenCalledTimes(1);
});
