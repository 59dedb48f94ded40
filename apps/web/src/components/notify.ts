import { notifications } from '@mantine/notifications';
import { TOAST_TIMEOUT_MS } from '@clinicrelay/contracts/constants.ts';

// The one way the app toasts, so every toast looks and times out the same (spec §9: 5 s).
export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'green', autoClose: TOAST_TIMEOUT_MS });
}

export function notifyError(message: string): void {
  notifications.show({ message, color: 'red', autoClose: TOAST_TIMEOUT_MS });
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
