import { useEffect, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useLocation, useSearchParams } from 'react-router';
import type { IdentityDecision, IdentityProofingResult } from '@clinicrelay/contracts/identity-proofing.ts';
import { currentSessionId } from '../../api/tokens.ts';
import { useSession } from '../../app/session-context.ts';
import { useIdentityProofingStatus, useRefreshProfile } from './api.ts';
import { ActivationDelayDialog } from './activation-delay-dialog.tsx';
import { DecisionDialog } from './decision-dialog.tsx';
import { IdentityDialog } from './identity-dialog.tsx';
import { OnboardingModal, SandboxNote } from './onboarding-modal.tsx';
import { ONBOARDING_DELAY_MS, plannedSteps, RELEASE_PATH_PREFIX, type OnboardingStep } from './onboarding-steps.ts';
import { onboardingTexts as texts } from './onboarding-texts.ts';
import { QuizDialog } from './quiz-dialog.tsx';
import { TermsDialog } from './terms-dialog.tsx';

// The dashboard's onboarding card links here (?onboarding=start) to run the sequence again after it was put off.
export const ONBOARDING_START_PARAM = 'onboarding';

const PROOFING_STEPS: readonly OnboardingStep[] = ['welcome', 'verification', 'identity', 'decision'];

// "Not now" lasts until the next sign-in, not until the next page load: remembered for this session and organization.
const PUT_OFF_KEY = 'clinicrelay.onboardingPutOff';
const putOffMark = (organizationId: string | null) => `${currentSessionId() ?? ''}:${organizationId ?? ''}`;
const isPutOff = (organizationId: string | null) => localStorage.getItem(PUT_OFF_KEY) === putOffMark(organizationId);
const mustAnswer = (step: OnboardingStep) => step === 'terms';

/** end-user §4 "Onboarding": the dialog sequence of the signed-in layout, one dialog at a time. */
export function OnboardingDialogs() {
  const { profile, preferences } = useSession();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const refreshProfile = useRefreshProfile();
  const plan = () => plannedSteps(profile, preferences, location.pathname.toLowerCase().startsWith(RELEASE_PATH_PREFIX));
  // New terms cannot be put off (issue 26): the API answers nothing else until they are accepted.
  const [steps, setSteps] = useState<OnboardingStep[]>(() => (isPutOff(profile.organizationId) ? plan().filter(mustAnswer) : plan()));
  const [ready, setReady] = useState(false);
  const [quiz, setQuiz] = useState<IdentityProofingResult | null>(null);
  const [decision, setDecision] = useState<IdentityDecision | null>(null);
  const status = useIdentityProofingStatus(profile.isAdmin && steps.some((s) => PROOFING_STEPS.includes(s)));

  useEffect(() => {
    const timer = setTimeout(() => setReady(true), ONBOARDING_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  // A restart is keyed by the navigation that asked for it, handled once while rendering (not in an effect).
  const restartKey = params.get(ONBOARDING_START_PARAM) === 'start' ? location.key : null;
  const [handledRestart, setHandledRestart] = useState<string | null>(null);
  if (restartKey && restartKey !== handledRestart) {
    setHandledRestart(restartKey);
    localStorage.removeItem(PUT_OFF_KEY);
    setSteps(plannedSteps(profile, { ...preferences, hideActivationDelayDialog: false }, location.pathname.toLowerCase().startsWith(RELEASE_PATH_PREFIX)));
    setQuiz(null);
    setDecision(null);
  }
  useEffect(() => {
    if (!restartKey) return;
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      next.delete(ONBOARDING_START_PARAM);
      return next;
    }, { replace: true });
  }, [restartKey, setParams]);

  const step = steps[0];
  if (!ready || !step) return null;
  const next = () => setSteps((previous) => previous.slice(1));
  const stop = () => setSteps([]);
  // Closing a step before the decision puts the whole sequence off until the next sign-in.
  const putOff = () => {
    localStorage.setItem(PUT_OFF_KEY, putOffMark(profile.organizationId));
    setSteps((previous) => previous.filter(mustAnswer));
  };
  const provider = status.data?.provider;

  // The provider answers a quiz (shown again while the answer carries a quizId) or a decision; after the decision the
  // profile is refreshed (end-user §4 rule 3).
  const onResult = (result: IdentityProofingResult) => {
    if (result.quizId) {
      setQuiz(result);
      setSteps(['quiz']);
      return;
    }
    setQuiz(null);
    setDecision(result.decision ?? 'N');
    setSteps(['decision']);
    void refreshProfile();
  };

  switch (step) {
    case 'terms':
      return (
        <TermsDialog
          reseller={profile.resellerBypassTos}
          onAccepted={() => {
            void refreshProfile();
            next();
          }}
        />
      );
    case 'welcome':
      return (
        <OnboardingModal title={texts.welcomeTitle} onClose={putOff}>
          <Stack>
            <Text>{texts.welcome}</Text>
            <Text>{texts.welcomeSteps}</Text>
            <SandboxNote provider={provider} />
            <Group justify="flex-end">
              <Button variant="default" onClick={putOff}>
                {texts.notNow}
              </Button>
              <Button onClick={next} data-autofocus>
                {texts.getStarted}
              </Button>
            </Group>
          </Stack>
        </OnboardingModal>
      );
    case 'verification':
      return (
        <OnboardingModal title={texts.verificationTitle} onClose={putOff}>
          <Stack>
            <Text>{texts.verification}</Text>
            <Text>{texts.verificationQuiz}</Text>
            <SandboxNote provider={provider} />
            <Group justify="flex-end">
              <Button onClick={next} data-autofocus>
                {texts.continue}
              </Button>
            </Group>
          </Stack>
        </OnboardingModal>
      );
    case 'identity':
      return <IdentityDialog provider={provider} onResult={onResult} onClose={putOff} />;
    case 'quiz':
      return quiz ? <QuizDialog key={quiz.quizId} quiz={quiz} onResult={onResult} /> : null;
    case 'decision': {
      // Rule 5 (an earlier attempt that did not pass): N, or the thank-you while the vendor reviews it or once an ID
      // document was uploaded (asking for it again at every sign-in would read as if it were lost).
      if (!decision && status.isPending) return null;
      const shown = decision ?? (status.data?.decision === 'R' || status.data?.documentSubmitted ? 'R' : 'N');
      return <DecisionDialog decision={shown} onClose={stop} />;
    }
    case 'activationDelay':
      return <ActivationDelayDialog onClose={next} />;
  }
}
