import { Group, Pagination } from '@mantine/core';
import { PAGER_VISIBLE_PAGES } from '@clinicrelay/contracts/constants.ts';

export interface PagerProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
}

/** The PAGER_VISIBLE_PAGES consecutive page numbers around `page`, shifted to stay within 1..totalPages. */
export function pageWindow(page: number, totalPages: number): number[] {
  const count = Math.min(PAGER_VISIBLE_PAGES, totalPages);
  const first = Math.min(Math.max(1, page - Math.floor(PAGER_VISIBLE_PAGES / 2)), totalPages - count + 1);
  return Array.from({ length: count }, (_, index) => first + index);
}

// Mantine's own item list uses siblings plus boundaries and dots, so its count varies; the spec wants a fixed window.
export function Pager({ page, totalPages, onChange }: PagerProps) {
  if (totalPages <= 1) return null;
  return (
    <Pagination.Root total={totalPages} value={page} onChange={onChange} role="navigation" aria-label="Pagination">
      <Group gap={4} wrap="nowrap">
        <Pagination.First aria-label="First page" />
        <Pagination.Previous aria-label="Previous page" />
        {pageWindow(page, totalPages).map((number) => (
          <Pagination.Control
            key={number}
            active={number === page}
            aria-current={number === page ? 'page' : undefined}
            onClick={() => onChange(number)}
          >
            {number}
          </Pagination.Control>
        ))}
        <Pagination.Next aria-label="Next page" />
        <Pagination.Last aria-label="Last page" />
      </Group>
    </Pagination.Root>
  );
}
