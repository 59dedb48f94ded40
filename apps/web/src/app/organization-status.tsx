import { useRef, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { DIALOG_WIDTH_PX } from '@clinicrelay/contracts/constants.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import type { Profile } from '@clinicrelay/contracts/session.ts';
import { useCurrentSubscription, useReactivate } from '../api/subscriptions.ts';
import { errorDetails } from '../components/error-details.ts';
import { notifySuccess } from '../components/notify.ts';
import { formatDate } from '../components/format.ts';
import { OrganizationSwitcher } from './organization-switcher.tsx';
import { LOGOUT_PATH } from './paths.ts';
import { useSession } from './session-context.ts';

export type OrganizationStatus = 'reactivation' | 'cancelled' | 'gracePeriod';

export const organizationStatusTexts = {
  cancelledTitle: messages.organizationCancelled,
  cancelled:
    'Your organization was canceled by an administrator or for non-payment. Only an administrator of your organization can reactivate it.',
  gracePeriodTitle: 'Subscription has been canceled',
  gracePeriod: (name: string, until: string) =>
    `The subscription of ${name} has been canceled. You can use it until ${until}; after that, only an administrator of your organization can reactivate it.`,
  reactivationTitle: 'Reactivate your organization',
  reactivation: (name: string) => `${name} is currently canceled. Request its reactivation to renew the subscription with the card on file.`,
} as const;

/**
 * end-user §4 "Organization status": a canceled organization with an administrator and a subscription
 * reference → reactivation; canceled otherwise → the canceled modal (an administrator without a reference has
 * nothing to reactivate online); in the grace period → its modal. Null when the organization is in good standing.
 */
export function organizationStatusOf(profile: Profile): OrganizationStatus | null {
  if (profile.orgIsCancelled) return profile.roles.includes('Administrator') && profile.subscriptionReference ? 'reactivation' : 'cancelled';
  if (profile.orgIsInGracePeriod) return 'gracePeriod';
  return null;
}

// These modals are the only way on: no close button, Escape or outside click; each ends in logoff or a request.
const blockingModal = { withCloseButton: false, closeOnEscape: false, closeOnClickOutside: false, centered: true, size: DIALOG_WIDTH_PX } as const;

export function OrganizationStatusModal({ status }: { status: OrganizationStatus }) {
  if (status === 'reactivation') return <ReactivationModal />;
  if (status === 'gracePeriod') return <GracePeriodModal />;
  return <CancelledModal />;
}

function useLogOff() {
  const navigate = useNavigate();
  return () => void navigate(LOGOUT_PATH);
}

function CancelledModal() {
  const logOff = useLogOff();
  return (
    <Modal opened onClose={logOff} title={organizationStatusTexts.cancelledTitle} {...blockingModal}>
      <Stack>
        <Text>{organizationStatusTexts.cancelled}</Text>
        <Group justify="flex-end">
          <Button onClick={logOff} data-autofocus>
            Logout
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function GracePeriodModal() {
  const { profile } = useSession();
  const logOff = useLogOff();
  const name = profile.organizationName ?? 'your organization';
  return (
    <Modal opened onClose={logOff} title={organizationStatusTexts.gracePeriodTitle} {...blockingModal}>
      <Stack>
        <Text>{organizationStatusTexts.gracePeriod(name, formatDate(profile.orgGracePeriodEndDate))}</Text>
        <Group justify="flex-end">
          {/* end-user §2: Ok logs out. */}
          <Button onClick={logOff} data-autofocus>
            Ok
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ReactivationModal() {
  const { profile } = useSession();
  const logOff = useLogOff();
  // The modal opens once the current plan has answered, or failed (then without a plan).
  const subscription = useCurrentSubscription(true);
  const reactivate = useReactivate();
  const [sent, setSent] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const name = profile.organizationName ?? 'Your organization';

  return (
    <Modal opened={!subscription.isPending} onClose={logOff} title={organizationStatusTexts.reactivationTitle} {...blockingModal}>
      <Stack>
        <Text>{organizationStatusTexts.reactivation(name)}</Text>
        {subscription.data?.subscriptionReference && (
          <Text size="sm" c="dimmed">
            Subscription {subscription.data.subscriptionReference}
            {subscription.data.cancelledAt && `, canceled on ${formatDate(subscription.data.cancelledAt)}`}
          </Text>
        )}
        {reactivate.isError && <Alert color="red">{errorDetails(reactivate.error).message}</Alert>}
        {profile.organizations.length > 1 && <OrganizationSwitcher width="100%" />}
        <Group justify="flex-end">
          {/* Without a reactivation the organization stays canceled and nothing can be used: this signs out. */}
          <Button ref={cancelButton} variant="default" onClick={logOff}>
            Cancel Reactivation
          </Button>
          <Button
            data-autofocus
            loading={reactivate.isPending}
            disabled={sent}
            onClick={() => {
              // end-user §2: disabled after submit, whatever the answer.
              setSent(true);
              cancelButton.current?.focus();
              reactivate.mutate(subscription.data?.planId ?? null, {
                // end-user §4: 'Organization successfully reactivated.', then the refreshed profile closes this modal.
                onSuccess: (answer) => notifySuccess(answer.message),
              });
            }}
          >
            Request Reactivation
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
