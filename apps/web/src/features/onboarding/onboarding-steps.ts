import type { Profile, UserPreferences } from '@clinicrelay/contracts/session.ts';

export type OnboardingStep = 'terms' | 'welcome' | 'verification' | 'identity' | 'quiz' | 'decision' | 'activationDelay';

// end-user §2: the Release area shows the proofing dialogs in the order welcome, verification, terms, submit identity,
// security questions, decision; everywhere else the session order of §4 (terms first).
export const RELEASE_PATH_PREFIX = '/release';

/**
 * end-user §4 "Onboarding" as the list of dialogs to show, decided once when the sequence starts (the quiz and the
 * decision follow the answers). Organization administrators (isAdmin) get the whole sequence; other users of an
 * organization whose terms changed get the terms dialog only (orgIsAcceptedEULA is per user).
 */
export function plannedSteps(profile: Profile, preferences: UserPreferences, fromRelease: boolean): OnboardingStep[] {
  if (!profile.organizationId) return [];
  const terms: OnboardingStep[] = profile.orgIsAcceptedEULA ? [] : ['terms'];
  if (!profile.isAdmin) return terms;
  if (!profile.orgIsIdProofed) {
    // Rule 5: an attempt was made and did not pass: the decision dialog (N, or R while the vendor reviews).
    if (profile.idProofedAttemptDate) return [...terms, 'decision'];
    return fromRelease ? ['welcome', 'verification', ...terms, 'identity'] : [...terms, 'welcome', 'verification', 'identity'];
  }
  // Rule 4: proofed, not activated, not hidden by the user.
  if (!profile.orgIsActivated && !preferences.hideActivationDelayDialog) return [...terms, 'activationDelay'];
  return terms;
}

// Dialogs open after about 1 s (end-user §4), once the page under them has rendered.
export const ONBOARDING_DELAY_MS = 1000;
