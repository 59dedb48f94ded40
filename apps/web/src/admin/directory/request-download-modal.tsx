import { Select, Stack } from '@mantine/core';
import { z } from 'zod';
import {
  directoryDownloadMessages as text,
  directoryDownloadModes,
  directoryDownloadTypes,
  type DirectoryDownloadMode,
  type DirectoryDownloadType,
} from '@clinicrelay/contracts/directory-downloads.ts';
import { requestDirectoryDownload } from '../../api/directory-downloads.ts';
import { EntityModal } from '../../components/entity-modal.tsx';
import { InvalidFieldsAlert } from './invalid-fields-alert.tsx';

// back-office-b §5: type and mode required.
const formSchema = z.object({
  type: z.enum(directoryDownloadTypes, { error: text.typeRequired }).nullable().refine((v) => v !== null, text.typeRequired),
  mode: z.enum(directoryDownloadModes, { error: text.modeRequired }).nullable().refine((v) => v !== null, text.modeRequired),
});
type Values = { type: DirectoryDownloadType | null; mode: DirectoryDownloadMode | null };

const TYPE_HELP: Record<DirectoryDownloadType, string> = {
  Providers: 'Providers (individuals)',
  Organizations: 'Organizations',
  All: 'All (providers and organizations)',
};
const MODE_HELP: Record<DirectoryDownloadMode, string> = {
  Full: 'Full (every active entry)',
  Incremental: 'Incremental (changes since the last download)',
};

/** back-office-b §2: the request modal; the file is made in the background and listed when ready. */
export function RequestDownloadModal({ opened, onClose, onRequested }: { opened: boolean; onClose: () => void; onRequested: () => Promise<unknown> }) {
  return (
    <EntityModal<Values>
      opened={opened}
      onClose={onClose}
      title="Request directory download"
      entity={{ type: null, mode: null }}
      schema={formSchema}
      submitLabel="Request"
      successMessage={text.sent}
      failureMessage={text.notSent}
      onSubmit={async (values) => {
        await requestDirectoryDownload({ type: values.type!, mode: values.mode! });
        await onRequested();
      }}
    >
      {(form) => (
        <Stack gap="sm">
          <InvalidFieldsAlert form={form} />
          <Select label="Type" required data={directoryDownloadTypes.map((value) => ({ value, label: TYPE_HELP[value] }))} data-autofocus {...form.getInputProps('type')} />
          <Select label="Mode" required data={directoryDownloadModes.map((value) => ({ value, label: MODE_HELP[value] }))} {...form.getInputProps('mode')} />
        </Stack>
      )}
    </EntityModal>
  );
}
