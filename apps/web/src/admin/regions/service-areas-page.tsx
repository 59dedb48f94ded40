import { useState } from 'react';
import { Alert, Button, FileInput, Group, List, Modal, Stack, Text } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { crosswalkMessages, regionMessages, SERVICE_AREA_SEARCH_DEBOUNCE_MS, type HealthServiceArea } from '@clinicrelay/contracts/regions.ts';
import { fetchServiceAreas, regionKeys, serviceAreaKeys, uploadCrosswalk } from '../../api/regions.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { notifySuccess } from '../../components/notify.ts';

const columns: ListColumn<HealthServiceArea>[] = [
  { key: 'code', header: 'Code', width: 110 },
  { key: 'zipCode', header: 'Zip code', width: 110 },
  { key: 'name', header: 'HSA name' },
  { key: 'healthReferralRegionCode', header: 'Health referral region code', width: 200 },
  { key: 'healthReferralRegion', header: 'Health referral region' },
  { key: 'lastUpdated', header: 'Last updated', width: 130, render: (row) => formatDate(row.lastUpdated) },
];

/** /admin/healthserviceareas: back-office-b §2 "Service areas" (list and a CSV crosswalk upload modal). */
export function ServiceAreasPage() {
  usePageTitle('Health service areas');
  const [state, setState] = useListState();
  const [uploading, setUploading] = useState(false);
  const list = useQuery({
    queryKey: [...serviceAreaKeys, 'list', state],
    queryFn: ({ signal }) => fetchServiceAreas(state, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <ListPage
        title="Health service areas"
        columns={columns}
        rowKey={(row) => row.zipCode}
        query={{ items: list.data?.items, totalCount: list.data?.totalCount, isLoading: list.isLoading, error: list.error }}
        state={state}
        onStateChange={setState}
        searchDebounceMs={SERVICE_AREA_SEARCH_DEBOUNCE_MS}
        actions={<Button onClick={() => setUploading(true)}>Upload crosswalk</Button>}
      />
      <Modal opened={uploading} onClose={() => setUploading(false)} title="Upload crosswalk" size="lg">
        {uploading && <CrosswalkForm onClose={() => setUploading(false)} />}
      </Modal>
    </>
  );
}

function CrosswalkForm({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (chosen: File) => uploadCrosswalk(chosen),
    onSuccess: async (result) => {
      notifySuccess(result.message);
      await Promise.all([queryClient.invalidateQueries({ queryKey: serviceAreaKeys }), queryClient.invalidateQueries({ queryKey: regionKeys })]);
      onClose();
    },
  });
  const failure = upload.error ? errorDetails(upload.error) : null;
  const rowErrors = failure?.modelState?.file ?? [];
  const submit = () => {
    if (!file || !/\.csv$/i.test(file.name)) {
      setFileError(crosswalkMessages.fileRequired);
      return;
    }
    upload.mutate(file);
  };
  return (
    <Stack>
      <Text size="sm">
        The crosswalk maps each ZIP code to its health service area and health referral region (columns zipcode, hsanum, hsacity, hsastate, hrrnum, hrrcity, hrrstate). It replaces every service area; regions it names that do not exist are created.
      </Text>
      <FileInput
        label="Crosswalk file"
        placeholder="Choose a .CSV file"
        accept=".csv,text/csv"
        clearable
        clearButtonProps={{ 'aria-label': 'Clear file' }}
        required
        value={file}
        error={fileError}
        onChange={(chosen) => {
          setFile(chosen);
          setFileError(null);
          upload.reset();
        }}
      />
      {(fileError || failure) && (
        <Alert color="red" role="alert" title={fileError ? regionMessages.invalidFields : failure!.message}>
          {rowErrors.length > 0 && !fileError && (
            <List size="sm" spacing={2} style={{ maxHeight: 240, overflowY: 'auto' }}>
              {rowErrors.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={upload.isPending}>
          Upload
        </Button>
      </Group>
    </Stack>
  );
}
