import { Button, List, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'react-router';
import type { Profile } from '@clinicrelay/contracts/session.ts';
import { DashboardSection } from './dashboard-section.tsx';

export const onboardingTexts = {
  title: 'Getting started',
  intro: 'Your organization is not activated yet. These steps remain:',
  done: 'done',
  pending: 'not yet',
  steps: { terms: 'Terms accepted', identity: 'Identity proofed', activated: 'Activated' },
  continue: 'Continue onboarding',
} as const;

function StepIcon({ done }: { done: boolean }) {
  return (
    <ThemeIcon size={20} radius="xl" color={done ? 'green' : 'gray'} variant={done ? 'filled' : 'outline'} aria-hidden>
      <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3">
        {done ? <path d="M5 12l5 5L20 7" /> : <circle cx="12" cy="12" r="3" />}
      </svg>
    </ThemeIcon>
  );
}

/** While the organization is not activated: the onboarding steps, from the profile. Nothing once it is. */
export function DashboardOnboarding({ profile }: { profile: Profile }) {
  if (profile.orgIsActivated) return null;
  const steps = [
    { label: onboardingTexts.steps.terms, done: profile.orgIsAcceptedEULA },
    { label: onboardingTexts.steps.identity, done: profile.orgIsIdProofed },
    { label: onboardingTexts.steps.activated, done: profile.orgIsActivated },
  ];
  return (
    <DashboardSection title={onboardingTexts.title}>
      <Text mb="sm">{onboardingTexts.intro}</Text>
      <List spacing="xs" aria-label={onboardingTexts.title}>
        {steps.map((step) => (
          <List.Item key={step.label} icon={<StepIcon done={step.done} />}>
            {step.label}: {step.done ? onboardingTexts.done : onboardingTexts.pending}
          </List.Item>
        ))}
      </List>
      {/* The onboarding dialogs (features/onboarding) start again from this link; only administrators run them. */}
      {profile.isAdmin && (!profile.orgIsAcceptedEULA || !profile.orgIsIdProofed) && (
        <Button component={Link} to="?onboarding=start" variant="light" mt="md">
          {onboardingTexts.continue}
        </Button>
      )}
    </DashboardSection>
  );
}
