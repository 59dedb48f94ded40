import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Modal, Paper, Stack, Table, Text, Textarea, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { CANCEL_REASON_MAX, type CurrentSubscription, type PlanOffer } from '@clinicrelay/contracts/subscriptions.ts';
import { useCancelSubscription, useChangePlan, useCurrentSubscription } from '../../api/subscriptions.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate } from '../../components/format.ts';
import { notifySuccess } from '../../components/notify.ts';

// /settings/subscription (issue 14 §4; the route is not in the spec): an Administrator sees the plan, changes it with
// the sandbox checkout (test mode) and cancels it with a reason. Calls: end-user §7 "Subscriptions".

export const subscriptionTexts = {
  title: 'Subscription',
  sandboxTitle: 'Sandbox (test mode)',
  sandbox: 'No real card is charged. Use 4242 4242 4242 4242 to pay or 4000 0000 0000 0002 for a declined card, with any future expiry date and any 3 digit code.',
  cancelTitle: 'Cancel the subscription?',
  cancelConfirm: 'Your organization can use the product until the end of the month already paid for; after that, only an administrator can reactivate it.',
} as const;

const price = (cents: number) => (cents === 0 ? 'Free' : `$${(cents / 100).toFixed(2)} / month`);
const STATUS_COLOR = { Active: 'green', GracePeriod: 'orange', Cancelled: 'red' } as const;
const STATUS_LABEL = { Active: 'Active', GracePeriod: 'Canceled, in the grace period', Cancelled: 'Canceled' } as const;

export function SubscriptionPage() {
  usePageTitle(subscriptionTexts.title);
  const subscription = useCurrentSubscription(true);
  const [choosing, setChoosing] = useState<PlanOffer | null>(null);
  return (
    <Stack gap="md" maw={960}>
      <Title order={1}>{subscriptionTexts.title}</Title>
      {subscription.isPending && <Loader aria-label="Loading the subscription" />}
      {subscription.isError && <Alert color="red">{errorDetails(subscription.error).message}</Alert>}
      {subscription.data && (
        <>
          <CurrentPlanSection subscription={subscription.data} />
          <PlansSection subscription={subscription.data} onChoose={setChoosing} />
          {subscription.data.status === 'Active' && <CancelSection />}
          {choosing && <CheckoutModal plan={choosing} organizationId={subscription.data.organizationId} onClose={() => setChoosing(null)} />}
        </>
      )}
    </Stack>
  );
}

function CurrentPlanSection({ subscription }: { subscription: CurrentSubscription }) {
  const plan = subscription.plans.find((p) => p.id === subscription.planId);
  const last = subscription.lastPayment;
  return (
    <Paper withBorder p="md" component="section" aria-label="Current plan">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Current plan: {plan?.name ?? 'None'}
          </Title>
          <Badge color={STATUS_COLOR[subscription.status]} variant="light" tt="none">
            {STATUS_LABEL[subscription.status]}
          </Badge>
        </Group>
        {plan && (
          <Text size="sm">
            {plan.allowedUsersDescription}, {price(plan.priceCents)}. Your organization has {subscription.userCount} {subscription.userCount === 1 ? 'user' : 'users'}.
          </Text>
        )}
        {subscription.subscriptionReference && <Text size="sm">Subscription {subscription.subscriptionReference}</Text>}
        {last && (
          <Text size="sm">
            Last payment {price(last.amountCents).replace(' / month', '')} on {formatDate(last.completedAt ?? last.createdAt)}
            {last.cardLast4 ? ` with the card ending in ${last.cardLast4}` : ''}.
          </Text>
        )}
        {subscription.status === 'GracePeriod' && <Alert color="orange">Canceled: your organization can use it until {formatDate(subscription.gracePeriodEndDate)}.</Alert>}
      </Stack>
    </Paper>
  );
}

function PlansSection({ subscription, onChoose }: { subscription: CurrentSubscription; onChoose: (plan: PlanOffer) => void }) {
  return (
    <Paper withBorder p="md" component="section" aria-label="Plans">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Plans
        </Title>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Plan</Table.Th>
              <Table.Th>Users</Table.Th>
              <Table.Th>Price</Table.Th>
              <Table.Th>
                <VisuallyHidden>Action</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {subscription.plans.map((plan) => {
              const current = plan.id === subscription.planId && subscription.status === 'Active';
              const tooSmall = plan.allowedUsers >= 0 && subscription.userCount > plan.allowedUsers;
              return (
                <Table.Tr key={plan.id}>
                  <Table.Td>{plan.name}</Table.Td>
                  <Table.Td>{plan.allowedUsersDescription}</Table.Td>
                  <Table.Td>{price(plan.priceCents)}</Table.Td>
                  <Table.Td ta="right">
                    {current ? (
                      <Badge variant="outline" tt="none">
                        Current plan
                      </Badge>
                    ) : (
                      <Button size="xs" variant="default" disabled={tooSmall} title={tooSmall ? 'Your organization has more users than this plan allows.' : undefined} aria-label={`Choose ${plan.name}`} onClick={() => onChoose(plan)}>
                        Choose
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

/** The sandbox checkout: card fields (only the last 4 digits are kept by the server), or none for a free plan. */
function CheckoutModal({ plan, organizationId, onClose }: { plan: PlanOffer; organizationId: string; onClose: () => void }) {
  const change = useChangePlan();
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '', nameOnCard: '' });
  const [expiryError, setExpiryError] = useState<string | null>(null);
  const charged = plan.priceCents > 0;
  const problems = change.isError ? errorDetails(change.error) : null;
  const field = (...keys: string[]) => keys.flatMap((k) => problems?.modelState[k] ?? [])[0];
  const submit = () => {
    let cardBody = null;
    if (charged) {
      const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
      if (!match) {
        setExpiryError('Enter the expiry date as MM/YY.');
        return;
      }
      setExpiryError(null);
      const year = Number(match[2]);
      cardBody = { number: card.number, expiryMonth: Number(match[1]), expiryYear: year < 100 ? 2000 + year : year, cvc: card.cvc, nameOnCard: card.nameOnCard || null };
    }
    change.mutate(
      { planId: plan.id, organizationId, card: cardBody },
      {
        onSuccess: (answer) => {
          notifySuccess(answer.message);
          onClose();
        },
      },
    );
  };
  const shownProblem = problems && !field('card.number', 'card.expiry', 'card.cvc', 'card.expiryMonth', 'card.expiryYear') ? problems.message : null;
  return (
    <Modal opened onClose={change.isPending ? () => {} : onClose} title={`Change to ${plan.name}`} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack>
          <Text>
            {plan.name}: {plan.allowedUsersDescription}, {price(plan.priceCents)}.
          </Text>
          {charged && (
            <>
              <Alert color="blue" title={subscriptionTexts.sandboxTitle}>
                {subscriptionTexts.sandbox}
              </Alert>
              <TextInput label="Card number" required autoComplete="cc-number" inputMode="numeric" value={card.number} onChange={(e) => setCard({ ...card, number: e.currentTarget.value })} error={field('card.number')} />
              <Group grow align="flex-start">
                <TextInput label="Expiry (MM/YY)" required autoComplete="cc-exp" placeholder="MM/YY" value={card.expiry} onChange={(e) => setCard({ ...card, expiry: e.currentTarget.value })} error={expiryError ?? field('card.expiry', 'card.expiryMonth', 'card.expiryYear')} />
                <TextInput label="Security code" required autoComplete="cc-csc" inputMode="numeric" value={card.cvc} onChange={(e) => setCard({ ...card, cvc: e.currentTarget.value })} error={field('card.cvc')} />
              </Group>
              <TextInput label="Name on card" autoComplete="cc-name" value={card.nameOnCard} onChange={(e) => setCard({ ...card, nameOnCard: e.currentTarget.value })} />
            </>
          )}
          {shownProblem && <Alert color="red">{shownProblem}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={change.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={change.isPending}>
              {charged ? `Pay ${price(plan.priceCents).replace(' / month', '')} and change plan` : 'Change plan'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function CancelSection() {
  const cancel = useCancelSubscription();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper withBorder p="md" component="section" aria-label="Cancel subscription">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Cancel subscription
        </Title>
        <Textarea
          label="Why are you canceling?"
          required
          rows={3}
          maxLength={CANCEL_REASON_MAX}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={error}
        />
        <Group>
          <Button
            color="red"
            variant="light"
            onClick={() => {
              if (!reason.trim()) return setError('Tell us why you are canceling.');
              setError(null);
              setConfirming(true);
            }}
          >
            Cancel subscription
          </Button>
        </Group>
      </Stack>
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={subscriptionTexts.cancelTitle}
        message={subscriptionTexts.cancelConfirm}
        confirmLabel="Cancel subscription"
        cancelLabel="Keep subscription"
        danger
        onConfirm={async () => notifySuccess((await cancel.mutateAsync(reason)).message)}
      />
    </Paper>
  );
}
