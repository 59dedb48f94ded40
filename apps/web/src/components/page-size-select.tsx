import { NativeSelect } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@clinicrelay/contracts/constants.ts';

export interface PageSizeSelectProps {
  value?: number;
  onChange: (pageSize: number) => void;
}

// A list whose default is not one of the standard sizes (Intake's 30) offers its default too.
const optionsWith = (value: number) => [...new Set<number>([...PAGE_SIZES, value])].sort((a, b) => a - b).map(String);

// A native select: one click to change, and the options are plain `option` roles in tests and e2e.
export function PageSizeSelect({ value = DEFAULT_PAGE_SIZE, onChange }: PageSizeSelectProps) {
  return (
    <NativeSelect
      label="Items per page"
      data={optionsWith(value)}
      value={String(value)}
      onChange={(event) => onChange(Number(event.currentTarget.value))}
      w={120}
    />
  );
}
