import { useState, type MouseEvent } from 'react';
import { Text, Tooltip, type TextProps } from '@mantine/core';
import { POPOVER_DELAY_MS } from '@clinicrelay/contracts/constants.ts';

export interface TruncatedTextProps extends Omit<TextProps, 'children' | 'truncate'> {
  text: string;
  /** Cut after this many characters with an ellipsis (the spec's 80-character subject); the width cuts it too. */
  maxChars?: number;
}

/** Whether an element cuts its text, measured when the pointer enters it (for a tooltip with the full text). */
export function useOverflowTooltip(): { overflowing: boolean; onMouseEnter: (event: MouseEvent<HTMLElement>) => void } {
  const [overflowing, setOverflowing] = useState(false);
  return { overflowing, onMouseEnter: (event) => setOverflowing(event.currentTarget.scrollWidth > event.currentTarget.clientWidth) };
}

/**
 * One line of text that never widens its container: cut with an ellipsis where it overflows, the full text
 * in a tooltip on hover (only when something is hidden).
 */
export function TruncatedText({ text, maxChars, ...props }: TruncatedTextProps) {
  const shown = maxChars !== undefined && text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
  const { overflowing, onMouseEnter } = useOverflowTooltip();
  return (
    <Tooltip label={text} disabled={shown === text && !overflowing} openDelay={POPOVER_DELAY_MS} multiline maw={480} style={{ overflowWrap: 'anywhere' }}>
      <Text truncate="end" onMouseEnter={onMouseEnter} {...props}>
        {shown}
      </Text>
    </Tooltip>
  );
}
