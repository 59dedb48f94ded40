import { useState } from 'react';
import { Alert, Anchor, Button, Group, Radio, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { TOAST_TIMEOUT_MS } from '@clinicrelay/contracts/constants.ts';
import { conversationMessages, referralOutcomes, type ReferralOutcome } from '@clinicrelay/contracts/conversations.ts';
import { releaseMessages, type Message } from '@clinicrelay/contracts/messages.ts';
import { useSession } from '../../app/session-context.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { MessageActivityModal } from '../../components/message-activity-modal.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { useOrganizationSettings } from '../../api/organization-settings.ts';
import { fetchDeliverySummary, useRespondToReferral, useSendDeliverySummaryToIntake } from './api.ts';
import { saveFile } from '../../components/save-file.ts';

// My Intake: the Intake messages assigned to the user, where the server puts the summary they asked for.
const MY_INTAKE = '/intake?assign=mine';

// The spec's toast, with the way to My Intake it names (the toast sits outside the router: navigate is passed in).
function notifySummaryQueued(openMyIntake: () => void) {
  const id = notifications.show({
    color: 'green',
    autoClose: TOAST_TIMEOUT_MS,
    message: (
      <Stack gap={4} align="flex-start">
        <Text size="sm">{releaseMessages.deliverySummaryQueued}</Text>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            notifications.hide(id);
            openMyIntake();
          }}
        >
          Open My Intake
        </Anchor>
      </Stack>
    ),
  });
}

/** The view page's actions beyond Forward and Delete: delivery summary and (Administrator) Activity. */
export function ReleaseMessageActions({ message }: { message: Message }) {
  const { profile } = useSession();
  const navigate = useNavigate();
  const settings = useOrganizationSettings();
  const sendToIntake = useSendDeliverySummaryToIntake();
  const [downloading, setDownloading] = useState(false);
  const [intakeOpen, setIntakeOpen] = useState(false);
  const [activityOpen, setActivityOpen] = useState(false);

  const ready = !message.isDraft && message.isReadyForDeliverySummary;
  const canDownload = ready && settings.data?.deliverySummaryEnableDownload === true;
  const isAdministrator = profile.roles.includes('Administrator');

  const download = async () => {
    setDownloading(true);
    try {
      const { blob, fileName } = await fetchDeliverySummary(message.id);
      saveFile(blob, fileName);
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      {canDownload && (
        <Button variant="default" loading={downloading} onClick={() => void download()}>
          Download Delivery Summary
        </Button>
      )}
      {ready && (
        <Button variant="default" onClick={() => setIntakeOpen(true)}>
          Send Delivery Summary to Intake
        </Button>
      )}
      {isAdministrator && (
        <Button variant="default" onClick={() => setActivityOpen(true)}>
          Activity
        </Button>
      )}
      <ConfirmModal
        opened={intakeOpen}
        onClose={() => setIntakeOpen(false)}
        title="Send Delivery Summary to Intake"
        message="A delivery summary of this message will be generated and added to My Intake (the Intake messages assigned to you)."
        confirmLabel="Send"
        onConfirm={async () => {
          // Both outcomes are toasts (screens catalog), so the modal closes either way.
          try {
            await sendToIntake.mutateAsync(message.id);
            notifySummaryQueued(() => void navigate(MY_INTAKE));
          } catch {
            notifyError(releaseMessages.deliverySummaryFailure);
          }
        }}
      />
      {isAdministrator && <MessageActivityModal opened={activityOpen} onClose={() => setActivityOpen(false)} messageId={message.id} />}
    </>
  );
}

const DRAFT_STATUS = 'Draft';

/** Tracked referral: its status, and while it has no outcome, the one-time choice of one. */
export function ReferralNotice({ message }: { message: Message }) {
  const respond = useRespondToReferral();
  const [outcome, setOutcome] = useState<ReferralOutcome | null>(null);
  const [note, setNote] = useState('');
  const [chosen, setChosen] = useState<{ outcome: ReferralOutcome; note: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const conversation = message.conversation;
  if (!conversation) return null;
  // After a choice the page shows it at once; the refetched message carries the new status too.
  const status = chosen?.outcome ?? conversation.conversationStatus;
  const open = chosen === null && conversation.conversationStatus === DRAFT_STATUS;

  const submit = async () => {
    if (outcome === null) return;
    setError(null);
    try {
      await respond.mutateAsync({
        conversationId: conversation.conversationId,
        body: { responseToMessageId: message.id, responseType: outcome, responseAction: note.trim() || null },
      });
      setChosen({ outcome, note: note.trim() });
      notifySuccess(conversationMessages.outcomeSaved);
    } catch (failure) {
      const { message: text } = errorDetails(failure);
      setError(text || conversationMessages.outcomeFailure);
    }
  };

  return (
    <Alert color={open ? 'blue' : 'teal'} title="Tracked referral">
      <Stack gap="xs">
        <Text size="sm">Referral status: {status}</Text>
        {chosen?.note && <Text size="sm">Note: {chosen.note}</Text>}
        {open && (
          <>
            <Radio.Group label="Outcome" value={outcome} onChange={(value) => setOutcome(value)}>
              <Group mt={4}>
                {referralOutcomes.map((value) => (
                  <Radio key={value} value={value} label={value} />
                ))}
              </Group>
            </Radio.Group>
            <Textarea label="Note (optional)" maxLength={255} rows={2} value={note} onChange={(event) => setNote(event.currentTarget.value)} />
            {error && <Text c="red" size="sm">{error}</Text>}
            <Group>
              <Button size="xs" disabled={outcome === null} loading={respond.isPending} onClick={() => void submit()}>
                Save outcome
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Alert>
  );
}
