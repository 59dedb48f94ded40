import type { ReactNode } from 'react';
import { Group, Table, UnstyledButton } from '@mantine/core';

export type SortDir = 'asc' | 'desc';

export interface SortableHeaderProps {
  /** Column key sent to the API as `col`. */
  column: string;
  children: ReactNode;
  /** The list's current sort column and direction. */
  sortCol: string | null;
  sortDir: SortDir;
  onSort: (column: string, dir: SortDir) => void;
  /** Rendered after the sort button inside the cell, e.g. the column's filter. */
  rightSection?: ReactNode;
  /** Hidden below this breakpoint (ListColumn.visibleFrom). */
  visibleFrom?: 'sm' | 'md' | 'lg' | 'xl';
  /** Column width (a fixed-layout table). */
  width?: number | string;
}

const ariaSort = { asc: 'ascending', desc: 'descending' } as const;

export function SortableHeader({ column, children, sortCol, sortDir, onSort, rightSection, visibleFrom, width }: SortableHeaderProps) {
  const active = sortCol === column;
  const next: SortDir = active && sortDir === 'asc' ? 'desc' : 'asc';
  return (
    <Table.Th aria-sort={active ? ariaSort[sortDir] : 'none'} visibleFrom={visibleFrom} w={width}>
      {/* A real button so keyboard users and role locators can sort. */}
      <UnstyledButton onClick={() => onSort(column, next)} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap">
          {children}
          <span aria-hidden="true">{active ? (sortDir === 'asc' ? '▲' : '▼') : '↕'}</span>
        </Group>
      </UnstyledButton>
      {rightSection}
    </Table.Th>
  );
}
