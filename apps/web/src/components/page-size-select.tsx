import { NativeSelect } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@clinicrelay/contracts/constants.ts';

export interface PageSizeSelectProps {
  value?: number;
  onChange: (pageSize: number) => void;
}

const options = PAGE_SIZES.map(String);

// A native select: one click to change, and the options are plain `option` roles in tests and e2e.
export function PageSizeSelect({ value = DEFAULT_PAGE_SIZE, onChange }: PageSizeSelectProps) {
  return (
    <NativeSelect
      label="Items per page"
      data={options}
      value={String(value)}
      onChange={(event) => onChange(Number(event.currentTarget.value))}
      w={120}
    />
  );
}
