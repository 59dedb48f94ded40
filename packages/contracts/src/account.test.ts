import { describe, expect, it } from 'vitest';
import { loginRequest, newPassword } from './account.ts';

describe('account contracts', () => {
  it('accepts passwords of 8 to 128 characters', () => {
    expect(newPassword.safeParse('12345678').success).toBe(true);
    expect(newPassword.safeParse('x'.repeat(128)).success).toBe(true);
    expect(newPassword.safeParse('1234567').error?.issues[0]?.message).toBe('Password must be at least 8 characters.');
    expect(newPassword.safeParse('x'.repeat(129)).error?.issues[0]?.message).toBe('Password must be at most 128 characters.');
  });

  it('trims the user name and requires both sign-in fields', () => {
    expect(loginRequest.parse({ userName: '  a@b.org ', password: 'p' }).userName).toBe('a@b.org');
    const messages = loginRequest.safeParse({ userName: ' ', password: '' }).error?.issues.map((i) => i.message);
    expect(messages).toEqual(['Username is required.', 'Password is required.']);
  });
});
