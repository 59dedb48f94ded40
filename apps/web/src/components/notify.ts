import { notifications, notificationsStore } from '@mantine/notifications';
import { TOAST_TIMEOUT_MS } from '@clinicrelay/contracts/constants.ts';

// The one way the app toasts, so every toast looks and times out the same (spec §9: 5 s).
export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'green', autoClose: TOAST_TIMEOUT_MS });
}

const ERROR_PREFIX = 'error:';

// One error toast at a time (issue 26: failures piled up four deep): a new error takes the place of the one shown,
// and the same error again leaves the one shown alone.
export function notifyError(message: string): void {
  const id = `${ERROR_PREFIX}${message}`;
  const { notifications: shown, queue } = notificationsStore.getState();
  const errors = [...shown, ...queue].filter((n) => n.id?.startsWith(ERROR_PREFIX));
  if (errors.some((n) => n.id === id)) return;
  for (const previous of errors) notifications.hide(previous.id!);
  notifications.show({ id, message, color: 'red', autoClose: TOAST_TIMEOUT_MS });
}

/** Runs the call; when it fails, toasts `failure` (back-office-b §8 'not created', 'not deleted', …) and passes the
 * error on, so the form or the confirmation still shows the server's reason. */
export async function withFailureToast<T>(call: () => Promise<T>, failure: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    notifyError(failure);
    throw error;
  }
}
