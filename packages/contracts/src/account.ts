import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { text } from './text.ts';

// Sign-in calls: the spec does not show them; the foundation issue fixes these shapes.
export const loginRequest = z.object({
  userName: text('Username').trim().min(1, 'Username is required.').max(256),
  password: text('Password').min(1, 'Password is required.').max(PASSWORD_MAX_LENGTH),
  code: text('Verification code').trim().max(16).optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

// Any new password (demo seed now; account and user management later): 8 to 128 characters.
export const newPassword = text()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`);

export const tokenResponse = z.object({
  accessToken: text(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int(),
  refreshToken: text(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;

export const refreshRequest = z.object({ refreshToken: text().min(1).max(512) });
export type RefreshRequest = z.infer<typeof refreshRequest>;

export const okResponse = z.object({ ok: z.literal(true) });
