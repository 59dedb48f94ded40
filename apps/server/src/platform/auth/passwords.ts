import { hash, verify } from '@node-rs/argon2';
import { newPassword } from '@clinicrelay/contracts/account.ts';

// argon2id with OWASP's minimum parameters (19 MiB, 2 iterations): strong and quick enough for sign-in.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 as const };

// Refuses a password outside the 8-128 character rule, whoever calls it.
export const hashPassword = async (password: string): Promise<string> => hash(newPassword.parse(password), options);

// Compared against when the user does not exist, so both paths cost the same time.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  const target = passwordHash ?? (await (dummyHash ??= hashPassword('not-a-real-password')));
  try {
    return (await verify(target, password)) && passwordHash != null;
  } catch {
    return false;
  }
}
