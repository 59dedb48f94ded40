import { useState } from 'react';
import { Alert, Button, Group, Modal, MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatIsoDate, parseTypedDate, todayIsoDate } from '@clinicrelay/contracts/dates.ts';
import { reportMessages as text } from '@clinicrelay/contracts/reports.ts';
import { fetchReportOrganizations, reportKeys } from '../../api/reports.ts';
import { TypedDateInput } from '../../components/typed-date-input.tsx';

const dateTexts = { invalid: text.invalidDate, future: text.dateInFuture };

// back-office-a §5: the default range is the last month, ending today.
function lastMonth() {
  const end = new Date();
  const start = new Date(end);
  start.setMonth(start.getMonth() - 1);
  return { start: formatIsoDate(todayIsoDate(start)), end: formatIsoDate(todayIsoDate(end)) };
}

export interface DateRangeChoice {
  start: string;
  end: string;
  pageNumber: number;
}

/** The Devices Report and Messages Report modals: a date range (and, for messages, a page number of 10,000 rows). */
export function DateRangeReportModal({ title, withPageNumber, onClose, onDownload }: { title: string; withPageNumber?: boolean; onClose: () => void; onDownload: (choice: DateRangeChoice) => Promise<void> }) {
  const [values, setValues] = useState({ ...lastMonth(), pageNumber: '1' });
  const [errors, setErrors] = useState<{ start?: string | null; end?: string | null; pageNumber?: string | null }>({});
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const today = todayIsoDate();
    const check = (value: string) => {
      const iso = parseTypedDate(value);
      if (!iso) return { iso: null, error: text.invalidDate };
      if (iso > today) return { iso, error: text.dateInFuture };
      return { iso, error: null };
    };
    const start = check(values.start);
    const end = check(values.end);
    const next: { start: string | null; end: string | null; pageNumber: string | null } = { start: start.error, end: end.error, pageNumber: withPageNumber && !/^\d{1,2}$/.test(values.pageNumber.trim()) ? text.pageNumberRequired : null };
    if (!next.start && !next.end && start.iso! > end.iso!) next.start = text.startAfterEnd;
    setErrors(next);
    const bad = Object.values(next).some(Boolean) || (withPageNumber && Number(values.pageNumber) < 1);
    setInvalid(!!bad);
    if (bad) return;
    setBusy(true);
    try {
      await onDownload({ start: start.iso!, end: end.iso!, pageNumber: withPageNumber ? Number(values.pageNumber) : 1 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={title} centered>
      <Stack gap="sm">
        {invalid && <Alert color="red">{text.invalidFields}</Alert>}
        <Group grow align="flex-start">
          <TypedDateInput label="Start Date" required value={values.start} onChange={(start) => setValues((v) => ({ ...v, start }))} texts={dateTexts} onChecked={(start) => setErrors((e) => ({ ...e, start }))} error={errors.start} />
          <TypedDateInput label="End Date" required value={values.end} onChange={(end) => setValues((v) => ({ ...v, end }))} texts={dateTexts} onChecked={(end) => setErrors((e) => ({ ...e, end }))} error={errors.end} />
        </Group>
        {withPageNumber && (
          <>
            <TextInput label="Page Number" required maxLength={2} inputMode="numeric" value={values.pageNumber} onChange={(e) => setValues((v) => ({ ...v, pageNumber: e.currentTarget.value }))} error={errors.pageNumber} />
            <Text size="sm" c="dimmed">
              Each page holds up to 10,000 messages.
            </Text>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} loading={busy}>
            Download
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The organization select of the Unassigned Addresses, Intake Rules and Download Profiles reports. */
export function OrganizationSelectModal({ title, onClose, onDownload }: { title: string; onClose: () => void; onDownload: (organizationIds: string[]) => Promise<void> }) {
  const options = useQuery({ queryKey: reportKeys.organizations(), queryFn: ({ signal }) => fetchReportOrganizations(signal), staleTime: 60_000 });
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await onDownload(chosen);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <Stack gap="sm">
        <MultiSelect
          label="Organizations"
          placeholder={chosen.length ? undefined : 'All organizations'}
          data={(options.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
          value={chosen}
          onChange={setChosen}
          searchable
          clearable
          nothingFoundMessage="No organization matches."
          disabled={options.isLoading}
        />
        <Text size="sm" c="dimmed">
          Leave empty to report on every organization.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void download()} loading={busy}>
            Download
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
