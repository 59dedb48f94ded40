import { newPassword } from '@clinicrelay/contracts/account.ts';

// Issue 14 §5: every path that sets a password (registration, set-password links, change, administrators)
// asks this first; null when the password may be used, else the message to show under the field.
export async function passwordProblem(password: string, userName?: string | null): Promise<string | null> {
  const length = newPassword.safeParse(password);
  if (!length.success) return length.error.issues[0]!.message;
  const local = userName?.split('@')[0]?.toLowerCase();
  if (local && local.length >= 3 && password.toLowerCase().includes(local)) return 'Password must not contain your user name.';
  return null;
}
