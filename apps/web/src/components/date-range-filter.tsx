import { Button, Group } from '@mantine/core';
import { DateInput, type DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import { DATE_FORMAT } from '@clinicrelay/contracts/constants.ts';
import { parseTypedDate } from '@clinicrelay/contracts/dates.ts';

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

export type DayInputProps = Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat' | 'dateParser' | 'placeholder'> & {
  /** 'YYYY-MM-DD' or null. */
  value: string | null;
  onChange: (value: string | null) => void;
};

/**
 * A day picked in the calendar or typed in any format of end-user §5 (MM/DD/YYYY, M/D/YY, YYYY-MM-DD,
 * MMDDYYYY…). Typed text is taken when the field is left or Enter is pressed, not on each key: "03/16/20" is
 * only the start of "03/16/2026". A day outside minDate/maxDate is not taken, and the field shows the last
 * day it took again; erasing the text clears the day.
 */
export function DayInput({ value, onChange, minDate, maxDate, onBlur, onKeyDown, ...props }: DayInputProps) {
  const commit = (text: string) => {
    const iso = parseTypedDate(text);
    if (iso === null) return;
    const next = iso === '' ? null : iso;
    const inRange = next === null || ((!minDate || next >= isoDay(dayjs(minDate))) && (!maxDate || next <= isoDay(dayjs(maxDate))));
    if (inRange && next !== value) onChange(next);
  };
  return (
    <DateInput
      valueFormat={DATE_FORMAT}
      placeholder={DATE_FORMAT}
      dateParser={() => null}
      value={value}
      onChange={onChange}
      minDate={minDate}
      maxDate={maxDate}
      onBlur={(event) => {
        commit(event.currentTarget.value);
        onBlur?.(event);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit(event.currentTarget.value);
        onKeyDown?.(event);
      }}
      {...props}
    />
  );
}

export function DateRangeFilter({ value, onChange, quickRanges = [] }: DateRangeFilterProps) {
  const today = isoDay(dayjs());
  return (
    <Group gap="xs" align="flex-end">
      <DayInput
        label="Start date"
        value={value.startDate}
        maxDate={value.endDate ?? today}
        onChange={(startDate) => onChange({ ...value, startDate })}
        w={150}
      />
      <DayInput
        label="End date"
        value={value.endDate}
        minDate={value.startDate ?? undefined}
        maxDate={today}
        onChange={(endDate) => onChange({ ...value, endDate })}
        w={150}
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
