import { z } from 'zod';
import { text } from './text.ts';

// Issue 29 §1: the scopes of the product's API that a client application may ask for. A route declares the one it
// needs (route config oauthScope); a route that declares none refuses OAuth access tokens (insufficient_scope).
export const oauthScopes = ['intake.read', 'release.send', 'directory.read'] as const;
export type OAuthScope = (typeof oauthScopes)[number];

// What the consent screen says each scope lets the application do (the wording of Kno2's and Google's consent pages).
export const oauthScopeDescriptions: Record<OAuthScope | 'offline_access' | 'openid', string> = {
  'intake.read': 'Read the messages your organization receives (Intake)',
  'release.send': 'Send documents for your organization (Release)',
  'directory.read': 'Search the provider directory',
  offline_access: 'Keep this access when you are not signed in',
  openid: 'Know who you are (your user id)',
};

export const oauthMessages = {
  consentExpired: 'This authorization request has expired or was already answered. Go back to the application and start again.',
  insufficientScope: 'The access token does not grant the scope this call needs.',
} as const;

export const consentParams = z.object({ uid: text().regex(/^[A-Za-z0-9_-]{1,100}$/) });

// The consent screen: the application, what it asks for, and who would grant it.
export const consentDetails = z.object({
  clientName: text(),
  logoUrl: text(),
  applicationUrl: text(),
  scopes: z.array(z.object({ scope: text(), description: text() })),
  userName: text(),
  organizationName: text().nullable(),
});
export type ConsentDetails = z.infer<typeof consentDetails>;

export const consentDecision = z.object({ allow: z.boolean() });
// Where the browser goes next: the authorization server, which redirects to the application with a code or an error.
export const consentRedirect = z.object({ redirectTo: text() });
