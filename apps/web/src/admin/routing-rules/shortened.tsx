import { Text, Tooltip, VisuallyHidden } from '@mantine/core';

/** A value cut for the grid (§9: the address's first 17 characters), whole in its tooltip and for screen readers. */
export function Shortened({ full, shown }: { full: string; shown: string }) {
  if (full === shown) return <>{full}</>;
  return (
    <Tooltip label={full} withArrow>
      <Text span size="sm" tabIndex={0}>
        <span aria-hidden="true">{shown}</span>
        <VisuallyHidden>{full}</VisuallyHidden>
      </Text>
    </Tooltip>
  );
}
