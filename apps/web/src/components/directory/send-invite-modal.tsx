import { useMemo } from 'react';
import { Select, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { DIALOG_WIDTH_PX } from '@clinicrelay/contracts/constants.ts';
import { invitationMessages, invitationRequest, type InvitationRequest } from '@clinicrelay/contracts/users.ts';
import { useSendInvitation } from '../../api/directory.ts';
import { isUsableSource, useDocumentSources } from '../../api/document-sources.ts';
import { EntityModal } from '../entity-modal.tsx';

// end-user §2 "Send an Invite dialog", §3 and §5 "Invitation", §8 (the two toasts).

export interface SendInviteModalProps {
  opened: boolean;
  onClose: () => void;
  /** The name typed in Find Provider, so the user does not type it twice. */
  initialFullName?: string;
}

/**
 * Send an Invite: ask a provider who is not in the directory to join, optionally sharing one of our Direct
 * addresses. Send checks every field at once; the server's reasons show at their fields.
 */
export function SendInviteModal({ opened, onClose, initialFullName = '' }: SendInviteModalProps) {
  const sendInvitation = useSendInvitation();
  return (
    <EntityModal<InvitationRequest>
      opened={opened}
      onClose={onClose}
      title="Send an Invite"
      size={DIALOG_WIDTH_PX}
      entity={{ fullName: initialFullName, emailAddress: '', directAddress: null }}
      schema={invitationRequest}
      onSubmit={(values) => sendInvitation.mutateAsync(invitationRequest.parse(values))}
      submitLabel="Send"
      successMessage={invitationMessages.sent}
      failureMessage={invitationMessages.failed}
    >
      {(form) => <InviteFields form={form} />}
    </EntityModal>
  );
}

// A component of its own so the organization's addresses are asked for only while the dialog is open.
function InviteFields({ form }: { form: UseFormReturnType<InvitationRequest> }) {
  const sources = useDocumentSources();
  const directAddresses = useMemo(
    () => (sources.data ?? []).filter((s) => s.address.type === 'Direct' && isUsableSource(s)).map((s) => s.address.fullAddress),
    [sources.data],
  );
  return (
    <>
      <TextInput label="Full name" withAsterisk maxLength={100} autoComplete="off" {...form.getInputProps('fullName')} />
      <TextInput label="Email address" type="email" withAsterisk maxLength={254} autoComplete="off" {...form.getInputProps('emailAddress')} />
      <Select
        label="Direct address to share"
        description="Optional: one of your organization’s Direct addresses, for the provider to write to."
        placeholder="None"
        data={directAddresses}
        clearable
        nothingFoundMessage="Your organization has no Direct addresses."
        {...form.getInputProps('directAddress')}
      />
    </>
  );
}
