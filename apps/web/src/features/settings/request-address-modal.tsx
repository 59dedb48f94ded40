import { TextInput } from '@mantine/core';
import type { z } from 'zod';
import { documentSourceCreate, documentSourceMessages } from '@clinicrelay/contracts/document-sources.ts';
import { EntityModal } from '../../components/entity-modal.tsx';
import { useRequestDirectAddress } from './api.ts';
import { settingsText } from './settings-text.ts';

type Values = z.input<typeof documentSourceCreate>;

interface RequestAddressModalProps {
  opened: boolean;
  onClose: () => void;
  organizationId: string;
  /** The organization's subdomain: its Direct addresses are name@{subdomain}.… */
  subdomain: string | undefined;
}

/** Requests a new Direct address on the organization's domain; it stays Provisioning until a system administrator activates it. */
export function RequestAddressModal({ opened, onClose, organizationId, subdomain }: RequestAddressModalProps) {
  const request = useRequestDirectAddress();
  return (
    <EntityModal<Values>
      opened={opened}
      onClose={onClose}
      title={settingsText.requestDirect}
      entity={{ organizationId, type: 'DirectMessaging', fullAddress: '' }}
      schema={documentSourceCreate}
      onSubmit={(values) => request.mutateAsync(values)}
      successMessage={documentSourceMessages.directRequested}
      submitLabel="Request"
    >
      {(form) => (
        <TextInput
          label="Direct address"
          description={subdomain ? `name@${subdomain}.…` : undefined}
          required
          maxLength={255}
          data-autofocus
          {...form.getInputProps('fullAddress')}
        />
      )}
    </EntityModal>
  );
}
