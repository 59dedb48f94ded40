import { Notifications } from '@mantine/notifications';
import { TOAST_TIMEOUT_MS } from '@clinicrelay/contracts/constants.ts';

/** Where notifySuccess/notifyError toasts appear. */
export function Toasts() {
  return <Notifications position="top-right" autoClose={TOAST_TIMEOUT_MS} />;
}
