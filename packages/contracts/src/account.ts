import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';

// Sign-in calls: the spec does not show them; the foundation issue fixes these shapes.
export const loginRequest = z.object({
  userName: z.string().trim().min(1, 'Username is required.').max(256),
  password: z.string().min(1, 'Password is required.').max(PASSWORD_MAX_LENGTH),
  code: z.string().trim().max(16).optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

// Any new password (demo seed now; account and user management later): 8 to 128 characters.
export const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`);

export const tokenResponse = z.object({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int(),
  refreshToken: z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;

export const refreshRequest = z.object({ refreshToken: z.string().min(1).max(512) });
export type RefreshRequest = z.infer<typeof refreshRequest>;

export const okResponse = z.object({ ok: z.literal(true) });
