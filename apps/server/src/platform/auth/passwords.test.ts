import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await hashPassword('Correct-horse-1');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'Correct-horse-1')).toBe(true);
    expect(await verifyPassword(hash, 'correct-horse-1')).toBe(false);
  });

  it('never verifies against a missing hash', async () => {
    expect(await verifyPassword(null, 'not-a-real-password')).toBe(false);
  });

  it('refuses to hash a password shorter than 8 or longer than 128 characters', async () => {
    await expect(hashPassword('short')).rejects.toThrow(/at least 8/);
    await expect(hashPassword('x'.repeat(129))).rejects.toThrow(/at most 128/);
  });
});
