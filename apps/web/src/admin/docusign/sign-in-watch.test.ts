import { describe, expect, it } from 'vitest';
import { SIGN_IN_POLL_MS, SIGN_IN_WATCH_MS } from '@clinicrelay/contracts/connectors.ts';
import { watchSignInWindow } from './sign-in-watch.ts';

// A hand-driven clock: each tick runs the interval once and moves time on by the poll period.
function manualTimers() {
  let callback: (() => void) | null = null;
  let now = 0;
  return {
    timers: {
      setInterval: ((fn: () => void) => ((callback = fn), 1)) as unknown as typeof setInterval,
      clearInterval: (() => (callback = null)) as typeof clearInterval,
      now: () => now,
    },
    tick: () => {
      now += SIGN_IN_POLL_MS;
      callback?.();
    },
    running: () => callback !== null,
  };
}

describe('watching the sign-in window', () => {
  it('ends when the window closes', async () => {
    const win = { closed: false };
    const clock = manualTimers();
    const ended = watchSignInWindow(win, clock.timers);
    clock.tick();
    expect(clock.running()).toBe(true);
    win.closed = true;
    clock.tick();
    await expect(ended).resolves.toBe('closed');
    expect(clock.running()).toBe(false);
  });

  it('gives up after 120 s', async () => {
    const clock = manualTimers();
    const ended = watchSignInWindow({ closed: false }, clock.timers);
    for (let i = 0; i < SIGN_IN_WATCH_MS / SIGN_IN_POLL_MS - 1; i++) clock.tick();
    expect(clock.running()).toBe(true);
    clock.tick();
    await expect(ended).resolves.toBe('timeout');
  });
});
