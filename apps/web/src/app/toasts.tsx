import { Notifications } from '@mantine/notifications';
import { TOAST_TIMEOUT_MS } from '@clinicrelay/contracts/constants.ts';

/** Where notifySuccess/notifyError toasts appear; at most three at a time, the rest wait their turn. */
export function Toasts() {
  return <Notifications position="top-right" autoClose={TOAST_TIMEOUT_MS} limit={3} />;
}
