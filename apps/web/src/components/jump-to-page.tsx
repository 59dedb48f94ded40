import { useState } from 'react';
import { NumberInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { JUMP_PAGER_DEBOUNCE_MS } from '@clinicrelay/contracts/constants.ts';

export interface JumpToPageProps {
  totalPages: number;
  onChange: (page: number) => void;
}

export function clampPage(page: number, totalPages: number): number {
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, totalPages));
}

export function JumpToPage({ totalPages, onChange }: JumpToPageProps) {
  const [value, setValue] = useState<number | string>('');
  const jump = useDebouncedCallback((next: number | string) => {
    // Partial input such as "" or "-" arrives as a string: nothing to navigate to yet.
    if (typeof next !== 'number' || Number.isNaN(next)) return;
    const page = clampPage(next, totalPages);
    setValue(page);
    onChange(page);
  }, JUMP_PAGER_DEBOUNCE_MS);

  return (
    <NumberInput
      label="Go to page"
      value={value}
      onChange={(next) => {
        setValue(next);
        jump(next);
      }}
      allowDecimal={false}
      hideControls
      w={100}
    />
  );
}
