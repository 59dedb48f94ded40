import { Text } from '@mantine/core';
import { messages } from '@clinicrelay/contracts/errors.ts';

export interface EmptyStateProps {
  /** Defaults to the spec's list text "There are no results matching your criteria." */
  text?: string;
}

export function EmptyState({ text = messages.emptyList }: EmptyStateProps) {
  return (
    <Text c="dimmed" ta="center" py="lg">
      {text}
    </Text>
  );
}
