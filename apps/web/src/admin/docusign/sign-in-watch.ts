import { SIGN_IN_POLL_MS, SIGN_IN_WATCH_MS } from '@clinicrelay/contracts/connectors.ts';

/**
 * Watches the provider's sign-in window (back-office-b §9: up to 120 s): resolves when the window closes (the callback
 * page closes it once the account is recorded) or the time is up, whichever comes first. Returns how it ended.
 */
// Called through the object, so the browser's own functions are wrapped (window.setInterval called on another `this` throws "Illegal invocation").
const browserTimers = {
  setInterval: ((fn: () => void, ms: number) => globalThis.setInterval(fn, ms)) as typeof setInterval,
  clearInterval: ((id: ReturnType<typeof setInterval>) => globalThis.clearInterval(id)) as typeof clearInterval,
  now: () => Date.now(),
};

export function watchSignInWindow(win: Pick<Window, 'closed'>, timers: { setInterval: typeof setInterval; clearInterval: typeof clearInterval; now: () => number } = browserTimers) {
  const started = timers.now();
  return new Promise<'closed' | 'timeout'>((resolve) => {
    const id = timers.setInterval(() => {
      const ended = win.closed ? 'closed' : timers.now() - started >= SIGN_IN_WATCH_MS ? 'timeout' : null;
      if (ended) {
        timers.clearInterval(id);
        resolve(ended);
      }
    }, SIGN_IN_POLL_MS);
  });
}
