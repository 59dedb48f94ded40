import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants.ts';

// Sign-in calls: the spec does not show them; the foundation issue fixes these shapes.
export const loginRequest = z.object({
  userName: z.string().trim().min(1, 'Username is required.').max(256),
  password: z.string().min(1, 'Password is required.').max(PASSWORD_MAX_LENGTH),
  code: z.string().trim().max(16).optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

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
