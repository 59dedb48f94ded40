import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's minimum parameters (19 MiB, 2 iterations): strong and quick enough for sign-in.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 as const };

export const hashPassword = (password: string): Promise<string> => hash(password, options);

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
