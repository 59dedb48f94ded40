import { useState, type MouseEvent, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { DIALOG_WIDTH_PX } from '@clinicrelay/contracts/constants.ts';
import type { Profile } from '@clinicrelay/contracts/session.ts';
import { STAY_CONNECTED_PLAN, upgradeFeatureLabels, type UpgradeFeature } from '@clinicrelay/contracts/subscriptions.ts';
import { useRequestUpgrade } from '../api/subscriptions.ts';
import { errorDetails } from '../components/error-details.ts';
import { notifySuccess } from '../components/notify.ts';
import { useSession } from './session-context.ts';

// Not in the spec: where an Administrator's 'Send Request' leads (the plan page with its sandbox checkout).
export const SUBSCRIPTION_PATH = '/settings/subscription';

export const upgradeTexts = {
  title: 'Upgrade Subscription Plan',
  administrator: (feature: string) => `${feature} is not included in your organization's Stay Connected plan. Upgrade the subscription plan to use it.`,
  user: (feature: string) =>
    `${feature} is not included in your organization's Stay Connected plan. Send a request to your organization's administrators to upgrade the subscription plan.`,
} as const;

/** end-user §6: the Stay Connected plan shows the upgrade prompt on forward/reply, release, triage, EMR forwarding and CDA. */
export const needsUpgrade = (profile: Profile) => profile.planId === STAY_CONNECTED_PLAN;

/**
 * The plan-upgrade guard: `guard(feature, action)` runs the action, or on the Stay Connected plan opens the upgrade
 * prompt instead; `intercept(feature)` is the same for a link's onClick. Render `prompt` once where it is used.
 */
export function usePlanGuard() {
  const { profile } = useSession();
  const [feature, setFeature] = useState<UpgradeFeature | null>(null);
  const blocked = needsUpgrade(profile);
  return {
    blocked,
    guard: (which: UpgradeFeature, action: () => void) => (blocked ? setFeature(which) : action()),
    intercept: (which: UpgradeFeature) => (event: MouseEvent) => {
      if (!blocked) return;
      event.preventDefault();
      setFeature(which);
    },
    prompt: feature ? <UpgradePlanModal feature={feature} onClose={() => setFeature(null)} /> : null,
  };
}

/**
 * 'Upgrade Subscription Plan' with 'Send Request' and 'Not Now' (end-user §2). An Administrator's request goes to the
 * plan page; a User's is sent to the organization's Administrators ('Your plan upgrade request has been sent.').
 */
export function UpgradePlanModal({ feature, onClose }: { feature: UpgradeFeature; onClose: () => void }) {
  const { profile } = useSession();
  const navigate = useNavigate();
  const request = useRequestUpgrade();
  const isAdministrator = profile.roles.includes('Administrator');
  const label = upgradeFeatureLabels[feature];
  const send = () => {
    // Leaving the page closes the prompt with it.
    if (isAdministrator) {
      void navigate(SUBSCRIPTION_PATH);
      return;
    }
    request.mutate(feature, {
      onSuccess: (answer) => {
        notifySuccess(answer.message);
        onClose();
      },
    });
  };
  return (
    <Modal opened onClose={onClose} title={upgradeTexts.title} centered size={DIALOG_WIDTH_PX}>
      <Stack>
        <Text>{isAdministrator ? upgradeTexts.administrator(label) : upgradeTexts.user(label)}</Text>
        {request.isError && <Alert color="red">{errorDetails(request.error).message}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Not Now
          </Button>
          <Button data-autofocus loading={request.isPending} onClick={send}>
            Send Request
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The Release area behind the guard (end-user §2 "Plan-upgrade guard"): on the Stay Connected plan the prompt shows
 * instead of the page; Not Now goes back where the user came from, or to Intake on a first navigation.
 */
export function RequireSendingPlan({ children }: { children: ReactNode }) {
  const { profile } = useSession();
  const navigate = useNavigate();
  if (!needsUpgrade(profile)) return children;
  const back = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate('/intake', { replace: true });
  };
  return <UpgradePlanModal feature="Release" onClose={back} />;
}
