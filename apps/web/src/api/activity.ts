import { SESSION_ACTIVITY_HEADER } from '@clinicrelay/contracts/constants.ts';

// Whether the person at the screen is using the app: requests made after a minute without input (a list
// refreshing itself, a token renewal for it) are marked background, so they never hold off the server's
// automatic logoff after SESSION_IDLE_MINUTES.
export const ACTIVITY_HEADER = SESSION_ACTIVITY_HEADER;
const ACTIVE_WITHIN_MS = 60_000;
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

let lastInputAt: number | null = null;

function track(): void {
  if (lastInputAt !== null || typeof window === 'undefined') return;
  // Loading the app is activity too.
  lastInputAt = Date.now();
  const note = () => {
    lastInputAt = Date.now();
  };
  for (const type of INPUT_EVENTS) window.addEventListener(type, note, { capture: true, passive: true });
}

/** True while the user gave input within the last minute; starts tracking on first use. */
export function userIsActive(now: number = Date.now()): boolean {
  track();
  return lastInputAt !== null && now - lastInputAt < ACTIVE_WITHIN_MS;
}
