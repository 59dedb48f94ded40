import { Button, Group } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { DATE_FORMAT } from '@clinicrelay/contracts/constants.ts';

/** Dates as 'YYYY-MM-DD' (the API's date format), null when open-ended. */
export interface DateRange {
  startDate: string | null;
  endDate: string | null;
}

export interface QuickRange {
  label: string;
  /** Computed on click so "Today" is right even on a page left open overnight. */
  range: () => DateRange;
}

export interface DateRangeFilterProps {
  value: DateRange;
  onChange: (range: DateRange) => void;
  /** Extra quick ranges after Today and Yesterday, e.g. the intake list's "Message Date". */
  quickRanges?: QuickRange[];
}

const isoDay = (date: dayjs.Dayjs) => date.format('YYYY-MM-DD');

const singleDay = (date: dayjs.Dayjs): DateRange => ({ startDate: isoDay(date), endDate: isoDay(date) });

const defaultQuickRanges: QuickRange[] = [
  { label: 'Today', range: () => singleDay(dayjs()) },
  { label: 'Yesterday', range: () => singleDay(dayjs().subtract(1, 'day')) },
];

export function DateRangeFilter({ value, onChange, quickRanges = [] }: DateRangeFilterProps) {
  const today = isoDay(dayjs());
  return (
    <Group gap="xs" align="flex-end">
      <DatePickerInput
        label="Start date"
        placeholder={DATE_FORMAT}
        valueFormat={DATE_FORMAT}
        value={value.startDate}
        maxDate={value.endDate ?? today}
        onChange={(startDate) => onChange({ ...value, startDate })}
        w={140}
      />
      <DatePickerInput
        label="End date"
        placeholder={DATE_FORMAT}
        valueFormat={DATE_FORMAT}
        value={value.endDate}
        minDate={value.startDate ?? undefined}
        maxDate={today}
        onChange={(endDate) => onChange({ ...value, endDate })}
        w={140}
      />
      {[...defaultQuickRanges, ...quickRanges].map((quick) => (
        <Button key={quick.label} variant="light" onClick={() => onChange(quick.range())}>
          {quick.label}
        </Button>
      ))}
      <Button variant="subtle" onClick={() => onChange({ startDate: null, endDate: null })}>
        Clear
      </Button>
    </Group>
  );
}
