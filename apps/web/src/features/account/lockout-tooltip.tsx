import type { RefObject } from 'react';
import { Tooltip } from '@mantine/core';
import { messages } from '@clinicrelay/contracts/errors.ts';

/** The lockout policy beside the Log in button (end-user: "Account lockout … (tooltip)"). */
export function LockoutTooltip({ target, opened }: { target: RefObject<HTMLElement | null>; opened: boolean }) {
  return <Tooltip target={target} opened={opened} label={messages.lockoutTooltip} multiline w={260} withArrow />;
}
